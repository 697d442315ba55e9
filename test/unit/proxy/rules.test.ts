// The rule generator as data, one Service shape at a time: which map elements point where, and
// what each per-service chain holds (chain hashes masked as H, so the tables read as written).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateRuleset, type NodeFacts } from '../../../src/proxy/rules.ts';
import { servicePorts, type Family } from '../../../src/proxy/service-ports.ts';
import type { Ruleset } from '../../../src/proxy/ruleset.ts';
import { bySvc, service, slice, type Ep } from './fixtures.ts';

const facts: NodeFacts = { nodeName: 'node-a', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], localhostNodePorts: true };
const mask = (s: string) => s.replace(/-[0-9A-F]{8}-/g, '-H-');

function gen(svcs: any[], slices: any[], family: Family = 'ip', f: NodeFacts = facts): Ruleset {
  return generateRuleset(family, servicePorts(svcs, bySvc(...slices), family), f);
}
const elements = (r: Ruleset, name: string) => r.sets.get(name)!.elements.map(mask).sort();
/** the per-service chains (the fixed ones left out), hashes masked */
function serviceChains(r: Ruleset): Record<string, string[]> {
  return Object.fromEntries([...r.chains].filter(([n]) => /^(service|local|external|endpoint)-[0-9A-F]{8}-/.test(n)).map(([n, c]) => [mask(n), c.rules.map(mask)]).sort());
}
const web = (spec: Record<string, unknown> = {}, extra = {}) => service('web', { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80 }], ...spec }, extra);
const eps = (...list: Ep[]) => slice('web', list, [{ name: 'http', port: 8080 }]);
const S = 'service-H-default/web/tcp/http';
const X = 'external-H-default/web/tcp/http';
const L = 'local-H-default/web/tcp/http';
const E = (ip: string) => `endpoint-H-default/web/tcp/http__${ip}/8080`;
const endpointRules = (ip: string) => [`ip saddr ${ip} jump mark-for-masquerade`, `meta l4proto tcp dnat to ${ip}:8080`];

test('ClusterIP: the address maps to the service chain, which masquerades off-network clients and picks at random; each endpoint masquerades itself (hairpin) and DNATs', () => {
  const r = gen([web()], [eps({ ip: '10.42.0.2' }, { ip: '10.42.0.3' })]);
  assert.deepEqual(elements(r, 'service-ips'), [`10.96.0.10 . tcp . 80 : goto ${S}`]);
  assert.deepEqual(elements(r, 'cluster-ips'), ['10.96.0.10']);
  assert.deepEqual(elements(r, 'no-endpoint-services'), []);
  assert.deepEqual(elements(r, 'service-nodeports'), []);
  assert.deepEqual(serviceChains(r), {
    [E('10.42.0.2')]: endpointRules('10.42.0.2'),
    [E('10.42.0.3')]: endpointRules('10.42.0.3'),
    [S]: [
      'ip daddr 10.96.0.10 tcp dport 80 ip saddr != 10.42.0.0/16 jump mark-for-masquerade',
      `numgen random mod 2 vmap { 0 : goto ${E('10.42.0.2')} , 1 : goto ${E('10.42.0.3')} }`,
    ],
  });
});

test('no endpoints: ClusterIP and node port rejected before NAT, no per-service chain', () => {
  const r = gen([web({ type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })], []);
  assert.deepEqual(elements(r, 'no-endpoint-services'), ['10.96.0.10 . tcp . 80 : goto reject-chain']);
  assert.deepEqual(elements(r, 'no-endpoint-nodeports'), ['tcp . 30080 : goto reject-chain']);
  assert.deepEqual(elements(r, 'service-ips'), []);
  assert.deepEqual(serviceChains(r), {});
  assert.deepEqual(r.chains.get('reject-chain')!.rules, ['reject']);
  // the filter hooks run before DNAT (priority -110) and send new connections through the checks
  assert.match(r.chains.get('filter-forward')!.hook!, /hook forward priority -110/);
  assert.ok(r.chains.get('filter-forward')!.rules.includes('ct state new jump service-endpoints-check'));
  // endpoints that are neither ready nor serving count as none
  const r2 = gen([web()], [eps({ ip: '10.42.0.2', ready: false, serving: false, terminating: true })]);
  assert.deepEqual(elements(r2, 'no-endpoint-services'), ['10.96.0.10 . tcp . 80 : goto reject-chain']);
});

test('NodePort: the port on the node addresses (and 127.0.0.1) goes to the external chain, which masquerades and goes on to the service chain', () => {
  const r = gen([web({ type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })], [eps({ ip: '10.42.0.2' })]);
  assert.deepEqual(elements(r, 'service-nodeports'), [`tcp . 30080 : goto ${X}`]);
  assert.deepEqual(elements(r, 'nodeport-ips'), ['127.0.0.1', '192.0.2.1']);
  assert.deepEqual(serviceChains(r)[X], ['jump mark-for-masquerade', `goto ${S}`]);
  assert.deepEqual(r.chains.get('services')!.rules, ['ip daddr . meta l4proto . th dport vmap @service-ips', 'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports']);
  // localhost node ports come with the guard against martians to 127/8 that kube-proxy sets
  assert.ok(r.chains.get('filter-input')!.rules.some(x => x.includes('ip daddr 127.0.0.0/8') && x.endsWith('drop')));
  const noLocal = gen([web({ type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })], [eps({ ip: '10.42.0.2' })], 'ip', { ...facts, localhostNodePorts: false });
  assert.deepEqual(elements(noLocal, 'nodeport-ips'), ['192.0.2.1']);
  assert.ok(!noLocal.chains.get('filter-input')!.rules.some(x => x.includes('127.0.0.0/8')));
});

test('externalIPs and a LoadBalancer with an ingress address: the address and port go to the external chain', () => {
  const r = gen([
    web({ externalIPs: ['198.51.100.7'] }),
    service('lb', { type: 'LoadBalancer', clusterIP: '10.96.0.11', ports: [{ port: 443, nodePort: 30443 }] }, { status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } }),
  ], [eps({ ip: '10.42.0.2' }), slice('lb', [{ ip: '10.42.0.4' }], [{ port: 8443 }])]);
  assert.deepEqual(elements(r, 'service-ips'), [
    `10.96.0.10 . tcp . 80 : goto ${S}`,
    '10.96.0.11 . tcp . 443 : goto service-H-default/lb/tcp/',
    `198.51.100.7 . tcp . 80 : goto ${X}`,
    '203.0.113.9 . tcp . 443 : goto external-H-default/lb/tcp/',
  ]);
  assert.deepEqual(elements(r, 'service-nodeports'), ['tcp . 30443 : goto external-H-default/lb/tcp/']);
});

test('a LoadBalancer without a load balancer is reached on its node port only', () => {
  const r = gen([service('lb', { type: 'LoadBalancer', clusterIP: '10.96.0.11', ports: [{ port: 443, nodePort: 30443 }] })], [slice('lb', [{ ip: '10.42.0.4' }], [{ port: 8443 }])]);
  assert.deepEqual(elements(r, 'service-ips'), ['10.96.0.11 . tcp . 443 : goto service-H-default/lb/tcp/']);
  assert.deepEqual(elements(r, 'service-nodeports'), ['tcp . 30443 : goto external-H-default/lb/tcp/']);
});

test('sessionAffinity ClientIP: a set per endpoint with the timeout, consulted before the random pick and refreshed by the endpoint chain', () => {
  const r = gen([web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } } })], [eps({ ip: '10.42.0.2' }, { ip: '10.42.0.3' })]);
  const A = (ip: string) => `affinity-H-default/web/tcp/http__${ip}/8080`;
  const chains = serviceChains(r);
  assert.deepEqual(chains[S]!.slice(1), [
    `ip saddr @${A('10.42.0.2')} goto ${E('10.42.0.2')}`,
    `ip saddr @${A('10.42.0.3')} goto ${E('10.42.0.3')}`,
    `numgen random mod 2 vmap { 0 : goto ${E('10.42.0.2')} , 1 : goto ${E('10.42.0.3')} }`,
  ]);
  assert.deepEqual(chains[E('10.42.0.2')], ['ip saddr 10.42.0.2 jump mark-for-masquerade', `update @${A('10.42.0.2')} { ip saddr }`, 'meta l4proto tcp dnat to 10.42.0.2:8080']);
  const set = [...r.sets].find(([n]) => mask(n) === A('10.42.0.2'))![1];
  assert.deepEqual(set, { kind: 'set', spec: 'type ipv4_addr ; flags dynamic,timeout ; timeout 600s ;', elements: [], dynamic: true });
  // another timeout is another set (the old one goes with a sync)
  const r2 = gen([web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } })], [eps({ ip: '10.42.0.2' }, { ip: '10.42.0.3' })]);
  assert.notDeepEqual([...r2.sets.keys()].filter(n => n.startsWith('affinity-')).sort(), [...r.sets.keys()].filter(n => n.startsWith('affinity-')).sort());
});

test('internalTrafficPolicy Local: the ClusterIP goes to this node\'s endpoints only; none here but some elsewhere is a drop', () => {
  const here = gen([web({ internalTrafficPolicy: 'Local' })], [eps({ ip: '10.42.0.2', node: 'node-a' }, { ip: '10.42.1.2', node: 'node-b' })]);
  assert.deepEqual(elements(here, 'service-ips'), [`10.96.0.10 . tcp . 80 : goto ${L}`]);
  assert.deepEqual(serviceChains(here), { [E('10.42.0.2')]: endpointRules('10.42.0.2'), [L]: [`numgen random mod 1 vmap { 0 : goto ${E('10.42.0.2')} }`] });
  const elsewhere = gen([web({ internalTrafficPolicy: 'Local' })], [eps({ ip: '10.42.1.2', node: 'node-b' })]);
  assert.deepEqual(elements(elsewhere, 'no-endpoint-services'), ['10.96.0.10 . tcp . 80 : drop']);
  assert.deepEqual(serviceChains(elsewhere), {});
});

test('externalTrafficPolicy Local: outside clients only to this node\'s endpoints; pods and the host itself as with Cluster', () => {
  const svc = web({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80, nodePort: 30080 }] });
  const r = gen([svc], [eps({ ip: '10.42.0.2', node: 'node-a' }, { ip: '10.42.1.2', node: 'node-b' })]);
  const chains = serviceChains(r);
  assert.deepEqual(chains[X], [`ip saddr 10.42.0.0/16 goto ${S}`, 'fib saddr type local jump mark-for-masquerade', `fib saddr type local goto ${S}`, `goto ${L}`]);
  assert.deepEqual(chains[L], [`numgen random mod 1 vmap { 0 : goto ${E('10.42.0.2')} }`]);
  assert.match(chains[S]!.at(-1)!, /numgen random mod 2 /);
  // ClusterIP traffic is not affected by the external policy
  assert.deepEqual(elements(r, 'service-ips'), [`10.96.0.10 . tcp . 80 : goto ${S}`]);
  const none = gen([svc], [eps({ ip: '10.42.1.2', node: 'node-b' })]);
  assert.deepEqual(elements(none, 'no-endpoint-nodeports'), ['tcp . 30080 : drop']);
  assert.deepEqual(elements(none, 'service-ips'), [`10.96.0.10 . tcp . 80 : goto ${S}`]);
});

test('terminating endpoints carry traffic only while no endpoint is ready', () => {
  const both = gen([web()], [eps({ ip: '10.42.0.2' }, { ip: '10.42.0.3', ready: false, serving: true, terminating: true })]);
  assert.deepEqual(Object.keys(serviceChains(both)).sort(), [E('10.42.0.2'), S].sort());
  const onlyTerminating = gen([web()], [eps({ ip: '10.42.0.3', ready: false, serving: true, terminating: true })]);
  assert.deepEqual(serviceChains(onlyTerminating)[S]!.at(-1), `numgen random mod 1 vmap { 0 : goto ${E('10.42.0.3')} }`);
});

test('UDP and SCTP ports, several ports of one Service', () => {
  const svc = service('dns', { clusterIP: '10.96.0.53', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }, { name: 's', port: 9, protocol: 'SCTP' }] });
  const r = gen([svc], [slice('dns', [{ ip: '10.42.0.5' }], [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53 }, { name: 's', port: 9, protocol: 'SCTP' }])]);
  assert.deepEqual(elements(r, 'service-ips'), [
    '10.96.0.53 . sctp . 9 : goto service-H-default/dns/sctp/s',
    '10.96.0.53 . tcp . 53 : goto service-H-default/dns/tcp/dns-tcp',
    '10.96.0.53 . udp . 53 : goto service-H-default/dns/udp/dns',
  ]);
  assert.deepEqual(serviceChains(r)['endpoint-H-default/dns/udp/dns__10.42.0.5/53'], ['ip saddr 10.42.0.5 jump mark-for-masquerade', 'meta l4proto udp dnat to 10.42.0.5:53']);
});

test('IPv6: its own table family, bracketed DNAT, no localhost node ports', () => {
  const svc = service('web', { clusterIP: 'fd00::10', clusterIPs: ['fd00::10'], ipFamilies: ['IPv6'], type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] });
  const r = gen([svc], [slice('web', [{ ip: 'fd01::2' }], [{ name: 'http', port: 8080 }], { addressType: 'IPv6' })], 'ip6', { ...facts, nodeIPs: ['2001:db8::1'], clusterCIDRs: ['fd01::/64'] });
  assert.equal(r.family, 'ip6');
  assert.deepEqual(elements(r, 'service-ips'), [`fd00::10 . tcp . 80 : goto ${S}`]);
  assert.deepEqual(elements(r, 'nodeport-ips'), ['2001:db8::1']);
  assert.deepEqual(serviceChains(r)['endpoint-H-default/web/tcp/http__fd01..2/8080'], ['ip6 saddr fd01::2 jump mark-for-masquerade', 'meta l4proto tcp dnat to [fd01::2]:8080']);
  assert.equal(r.sets.get('service-ips')!.spec, 'type ipv6_addr . inet_proto . inet_service : verdict ;');
});

test('the fixed part: NAT hooks, masquerading by mark, a stable table', () => {
  const r = gen([], []);
  assert.equal(r.table, 'orch-proxy');
  assert.deepEqual(r.chains.get('masquerading')!.rules, ['mark and 0x4000 == 0 return', 'mark set mark xor 0x4000', 'masquerade fully-random']);
  assert.deepEqual(r.chains.get('mark-for-masquerade')!.rules, ['mark set mark or 0x4000']);
  assert.match(r.chains.get('nat-prerouting')!.hook!, /type nat hook prerouting priority dstnat/);
  assert.match(r.chains.get('nat-output')!.hook!, /type nat hook output/);
  assert.match(r.chains.get('nat-postrouting')!.hook!, /type nat hook postrouting priority srcnat/);
  // the same input gives the same table
  const a = gen([web()], [eps({ ip: '10.42.0.2' })]);
  const b = gen([web()], [eps({ ip: '10.42.0.2' })]);
  assert.deepEqual(a, b);
});

test('two Services claiming one external address and port: the first keeps it, the transaction stays valid', () => {
  const r = gen([web({ externalIPs: ['198.51.100.7'] }), service('other', { clusterIP: '10.96.0.12', externalIPs: ['198.51.100.7'], ports: [{ name: 'http', port: 80 }] })],
    [eps({ ip: '10.42.0.2' }), slice('other', [{ ip: '10.42.0.9' }], [{ name: 'http', port: 8080 }])]);
  assert.deepEqual(elements(r, 'service-ips').filter(e => e.startsWith('198.51.100.7')), [`198.51.100.7 . tcp . 80 : goto ${X}`]);
});
