import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policyId } from '../../../src/network-policy/ruleset.ts';
import { basePods, client, cluster, db, gateway, outside, pod, policy, remote, tools, web } from './cluster-fixture.ts';

test('with no policy every pod is unisolated: everything passes, the isolation sets are empty', () => {
  const { r, fwd, toHost } = cluster([]);
  assert.equal(fwd({ src: client, dst: web }), 'accept');
  assert.equal(fwd({ src: web, dst: outside, proto: 'udp', port: 53 }), 'accept');
  assert.equal(toHost({ src: web, dst: gateway }), 'accept');
  assert.deepEqual(['ingress-isolated-v4', 'egress-isolated-v4'].map(s => r.sets.get(s)!.elements), [[], []]);
  // the node's own traffic to its pods is never filtered: there is no output hook
  assert.deepEqual([...r.chains.values()].filter(c => c.hook).map(c => c.hook), ['forward', 'input']);
});

test('a default-deny ingress policy isolates every pod of its namespace on this node; egress stays open', () => {
  const { r, fwd, toHost } = cluster([policy('deny', { podSelector: {}, policyTypes: ['Ingress'] })]);
  assert.equal(fwd({ src: client, dst: web }), 'drop');
  assert.equal(fwd({ src: tools, dst: web }), 'drop');
  assert.equal(fwd({ src: outside, dst: db, proto: 'icmp' }), 'drop');
  assert.equal(fwd({ src: web, dst: tools }), 'accept', 'team-a is not isolated');
  assert.equal(fwd({ src: web, dst: outside }), 'accept', 'egress is not isolated');
  assert.equal(toHost({ src: web, dst: gateway }), 'accept');
  assert.deepEqual(r.sets.get('ingress-isolated-v4')!.elements, [web, client, db].sort());
  // replies of connections that were allowed always pass
  assert.equal(fwd({ src: client, dst: web, established: true }), 'accept');
});

test('policyTypes defaults: Ingress always, Egress only when there are egress rules', () => {
  const noEgress = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } } })]);
  assert.equal(noEgress.fwd({ src: client, dst: web }), 'drop');
  assert.equal(noEgress.fwd({ src: web, dst: outside }), 'accept');
  const withEgress = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, egress: [{ ports: [{ port: 443 }] }] })]);
  assert.equal(withEgress.fwd({ src: client, dst: web }), 'drop', 'Ingress is still implied');
  assert.equal(withEgress.fwd({ src: web, dst: outside, port: 443 }), 'accept');
  assert.equal(withEgress.fwd({ src: web, dst: outside, port: 80 }), 'drop');
  const egressOnly = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Egress'] })]);
  assert.equal(egressOnly.fwd({ src: client, dst: web }), 'accept', 'only Egress was asked for');
  assert.equal(egressOnly.fwd({ src: web, dst: client }), 'drop');
  assert.equal(egressOnly.toHost({ src: web, dst: gateway }), 'drop', 'the host is a destination like any other');
});

test('an empty rule allows everything; no rules allow nothing; a missing or empty from/ports is any', () => {
  const all = cluster([policy('p', { podSelector: {}, ingress: [{}] })]);
  assert.equal(all.fwd({ src: outside, dst: web, proto: 'udp', port: 9 }), 'accept');
  assert.equal(all.fwd({ src: outside, dst: web, proto: 'icmp' }), 'accept');
  const emptyLists = cluster([policy('p', { podSelector: {}, ingress: [{ from: [], ports: [] }] })]);
  assert.equal(emptyLists.fwd({ src: outside, dst: web, proto: 'sctp', port: 7 }), 'accept');
  const none = cluster([policy('p', { podSelector: {}, ingress: [] })]);
  assert.equal(none.fwd({ src: client, dst: web }), 'drop');
});

test('podSelector peers are pods of the policy\'s namespace with those labels, on any node', () => {
  const { r, fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }] }] })]);
  assert.equal(fwd({ src: client, dst: web }), 'accept');
  assert.equal(fwd({ src: tools, dst: web }), 'drop', 'app=client but in team-a');
  assert.equal(fwd({ src: db, dst: web }), 'drop');
  assert.equal(fwd({ src: client, dst: db }), 'accept', 'db is not selected');
  assert.deepEqual(r.sets.get(`${policyId('default', 'p')}-ingress-0-peer-pods-v4`)!.elements, [client]);
  const fromRemote = cluster([policy('p', { podSelector: {}, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }] }] }, 'team-a')]);
  assert.equal(fromRemote.fwd({ src: remote, dst: tools }), 'accept', 'a peer on another node');
  assert.equal(fromRemote.fwd({ src: web, dst: tools }), 'drop');
});

test('namespaceSelector alone: every pod of the matching namespaces; with podSelector: those pods there', () => {
  const alone = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] })]);
  assert.equal(alone.fwd({ src: tools, dst: web }), 'accept');
  assert.equal(alone.fwd({ src: remote, dst: web }), 'accept');
  assert.equal(alone.fwd({ src: client, dst: web }), 'drop', 'default is not team=a');
  const both = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: { matchLabels: { app: 'client' } } }] }] })]);
  assert.equal(both.fwd({ src: tools, dst: web }), 'accept');
  assert.equal(both.fwd({ src: remote, dst: web }), 'drop', 'team-a but app=web');
  assert.equal(both.fwd({ src: client, dst: web }), 'drop', 'app=client but not in team-a');
  const everyNamespace = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: {} }] }] })]);
  assert.equal(everyNamespace.fwd({ src: remote, dst: web }), 'accept');
  assert.equal(everyNamespace.fwd({ src: outside, dst: web }), 'drop', 'not a pod');
  const byExpression = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] } }] }] })]);
  assert.equal(byExpression.fwd({ src: client, dst: web }), 'accept');
  assert.equal(byExpression.fwd({ src: tools, dst: web }), 'drop');
});

test('ipBlock: the CIDR less its exceptions, united with the other peers', () => {
  const { r, fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.42.0.0/24', '10.42.1.5/32'] } }, { podSelector: { matchLabels: { app: 'db' } } }] }] })]);
  assert.equal(fwd({ src: '10.1.2.3', dst: web }), 'accept');
  assert.equal(fwd({ src: client, dst: web }), 'drop', 'in an exception');
  assert.equal(fwd({ src: remote, dst: web }), 'drop', 'in an exception');
  assert.equal(fwd({ src: '10.42.1.6', dst: web }), 'accept');
  assert.equal(fwd({ src: db, dst: web }), 'accept', 'excepted from the block but a peer by selector');
  assert.equal(fwd({ src: outside, dst: web }), 'drop');
  assert.deepEqual(r.sets.get(`${policyId('default', 'p')}-ingress-0-peer-blocks-v4`)!.elements, ['10.0.0.0-10.41.255.255', '10.42.1.0-10.42.1.4', '10.42.1.6-10.255.255.255']);
  assert.deepEqual(r.sets.get(`${policyId('default', 'p')}-ingress-0-peer-pods-v4`)!.elements, [db]);
  const egress = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: `${db}/32` } }] }] })]);
  assert.equal(egress.fwd({ src: web, dst: db }), 'accept', 'a pod address in a block');
  assert.equal(egress.fwd({ src: web, dst: client }), 'drop');
});

test('ports: protocol (TCP by default), numbers, endPort ranges, a protocol alone', () => {
  const { r, fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ ports: [{ port: 80 }, { protocol: 'UDP', port: 5000, endPort: 5010 }, { protocol: 'SCTP' }] }] })]);
  assert.equal(fwd({ src: client, dst: web, proto: 'tcp', port: 80 }), 'accept');
  assert.equal(fwd({ src: client, dst: web, proto: 'udp', port: 80 }), 'drop', 'port 80 is TCP only');
  assert.equal(fwd({ src: client, dst: web, proto: 'udp', port: 5010 }), 'accept');
  assert.equal(fwd({ src: client, dst: web, proto: 'udp', port: 5011 }), 'drop');
  assert.equal(fwd({ src: client, dst: web, proto: 'sctp', port: 1 }), 'accept');
  assert.equal(fwd({ src: client, dst: web, proto: 'icmp' }), 'drop', 'ports given: other protocols are not allowed');
  assert.deepEqual(r.sets.get(`${policyId('default', 'p')}-ingress-0-ports`)!.elements, ['sctp . 0-65535', 'tcp . 80', 'udp . 5000-5010']);
});

test('named ports resolve on each destination pod: the selected pod for ingress, the peer for egress', () => {
  const ingress = cluster([policy('p', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }, { port: 'dns', protocol: 'UDP' }] }] })]);
  assert.equal(ingress.fwd({ src: client, dst: web, port: 8080 }), 'accept');
  assert.equal(ingress.fwd({ src: client, dst: web, port: 9090 }), 'drop', 'web\'s http is 8080');
  assert.equal(ingress.fwd({ src: client, dst: db, port: 9090 }), 'accept', 'db\'s http is 9090');
  assert.equal(ingress.fwd({ src: client, dst: web, proto: 'udp', port: 5353 }), 'accept');
  assert.equal(ingress.fwd({ src: client, dst: client, port: 8080 }), 'drop', 'client has no port named http');
  const egress = cluster([policy('p', { podSelector: { matchLabels: { app: 'client' } }, policyTypes: ['Egress'], egress: [{ ports: [{ port: 'http' }] }] })]);
  assert.equal(egress.fwd({ src: client, dst: web, port: 8080 }), 'accept');
  assert.equal(egress.fwd({ src: client, dst: remote, port: 7070 }), 'accept', 'a peer on another node');
  assert.equal(egress.fwd({ src: client, dst: remote, port: 8080 }), 'drop');
  assert.equal(egress.fwd({ src: client, dst: outside, port: 8080 }), 'drop', 'not a pod: no named port');
  const mixed = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 'http' }, { port: 81 }] }] })]);
  assert.equal(mixed.fwd({ src: client, dst: web, port: 8080 }), 'accept');
  assert.equal(mixed.fwd({ src: client, dst: web, port: 81 }), 'accept');
  assert.equal(mixed.fwd({ src: db, dst: web, port: 8080 }), 'drop', 'the port matches, the peer does not');
});

test('policies add up: a pod selected by several is allowed what any of them allows', () => {
  const { fwd } = cluster([
    policy('deny', { podSelector: {} }),
    policy('from-client', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 80 }] }] }),
    policy('from-team-a', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] }),
  ]);
  assert.equal(fwd({ src: client, dst: web, port: 80 }), 'accept');
  assert.equal(fwd({ src: client, dst: web, port: 443 }), 'drop');
  assert.equal(fwd({ src: tools, dst: web, port: 443 }), 'accept');
  assert.equal(fwd({ src: web, dst: db }), 'drop', 'db only has the deny');
});

test('between two local pods both sides must allow: the source\'s egress and the destination\'s ingress', () => {
  const { fwd } = cluster([
    policy('client-out', { podSelector: { matchLabels: { app: 'client' } }, policyTypes: ['Egress'], egress: [{ to: [{ podSelector: { matchLabels: { app: 'web' } } }] }] }),
    policy('web-in', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'db' } } }] }] }),
  ]);
  assert.equal(fwd({ src: client, dst: web }), 'drop', 'client may send, web does not take it');
  assert.equal(fwd({ src: db, dst: web }), 'accept');
  assert.equal(fwd({ src: client, dst: db }), 'drop', 'client may only send to web');
});

test('egress default deny blocks DNS to the pod gateway until UDP 53 is allowed', () => {
  const deny = policy('deny-out', { podSelector: {}, policyTypes: ['Egress'] });
  assert.equal(cluster([deny]).toHost({ src: client, dst: gateway }), 'drop');
  assert.equal(cluster([deny]).toHost({ src: client, dst: gateway, established: true }), 'accept', 'replies to the host\'s own connections');
  const dns = policy('dns', { podSelector: {}, policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 53 }] }] });
  const both = cluster([deny, dns]);
  assert.equal(both.toHost({ src: client, dst: gateway }), 'accept');
  assert.equal(both.toHost({ src: client, dst: gateway, proto: 'tcp', port: 53 }), 'drop');
  assert.equal(both.fwd({ src: client, dst: outside, proto: 'udp', port: 53 }), 'accept');
});

test('only this node\'s pods are filtered here; pods of the host network or that ended are neither filtered nor peers', () => {
  const pods = [...basePods,
    pod('hostnet', 'default', '10.0.0.9', { app: 'web' }, { spec: { hostNetwork: true } }),
    pod('done', 'default', '10.42.0.99', { app: 'client' }, { phase: 'Succeeded' })];
  const { r, fwd } = cluster([policy('p', { podSelector: {}, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }] }] }, 'default'), policy('q', { podSelector: {} }, 'team-a')], pods);
  assert.deepEqual(r.sets.get('ingress-isolated-v4')!.elements, [web, client, db, tools].sort(), 'not remote, not hostnet');
  assert.equal(fwd({ src: client, dst: remote }), 'accept', 'the remote pod\'s own node filters its traffic');
  assert.equal(fwd({ src: '10.42.0.99', dst: web }), 'drop', 'an ended pod\'s address is nobody\'s');
  assert.equal(fwd({ src: client, dst: '10.0.0.9' }), 'accept');
});

test('a policy that selects no pod of this node costs nothing here', () => {
  const { r } = cluster([policy('p', { podSelector: { matchLabels: { app: 'nothing' } }, ingress: [{}] }), policy('q', { podSelector: { matchLabels: { app: 'web' } } }, 'team-a')]);
  assert.deepEqual([...r.sets.keys()].filter(k => k.startsWith('np-')), []);
  assert.deepEqual([...r.chains.keys()].filter(k => k.startsWith('np-')), []);
});

test('IPv6 pods get ip6 rules and sets beside the IPv4 ones', () => {
  const pods = [pod('web6', 'default', ['10.42.0.30', 'fd00:42::30'], { app: 'web' }), pod('client6', 'default', ['10.42.0.31', 'fd00:42::31'], { app: 'client' })];
  const { r, fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }, { ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } }] }] })], pods);
  assert.equal(fwd({ src: 'fd00:42::31', dst: 'fd00:42::30' }), 'accept');
  assert.equal(fwd({ src: '2001:db8:2::1', dst: 'fd00:42::30' }), 'accept');
  assert.equal(fwd({ src: '2001:db8:1::1', dst: 'fd00:42::30' }), 'drop');
  assert.equal(fwd({ src: 'fd00:42::99', dst: 'fd00:42::30' }), 'drop');
  assert.equal(fwd({ src: '10.42.0.31', dst: '10.42.0.30' }), 'accept');
  assert.deepEqual(r.sets.get('ingress-isolated-v6')!.elements, ['fd00:42::30']);
  assert.ok(r.chains.get('forward')!.rules.some(x => x.startsWith('icmpv6 type')), 'neighbour discovery passes');
});

test('a peer or selector that does not parse allows nothing rather than everything', () => {
  const { fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } }, { ipBlock: { cidr: 'not-a-cidr' } }] }] })]);
  assert.equal(fwd({ src: client, dst: web }), 'drop');
  assert.equal(fwd({ src: outside, dst: web }), 'drop');
});
