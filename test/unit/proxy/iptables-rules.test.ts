// The iptables fallback: the restore input as data for the Service shapes, and the same through
// iptables-restore itself (chains of a prefix of the test's own, removed afterwards).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existingChains, iptablesCleanup, iptablesRestore } from '../../../src/proxy/iptables-rules.ts';
import { findIptables, iptablesWriter } from '../../../src/proxy/iptables-writer.ts';
import type { NodeFacts } from '../../../src/proxy/rules.ts';
import { servicePorts } from '../../../src/proxy/service-ports.ts';
import { requires } from '../../support/requires.ts';
import { bySvc, service, slice } from './fixtures.ts';

const facts: NodeFacts = { nodeName: 'node-a', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], localhostNodePorts: true };
const mask = (s: string) => s.replace(/-[0-9A-F]{16}\b/g, '-H');
const web = (spec: Record<string, unknown> = {}) => service('web', { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80 }], ...spec });
const eps = (...ips: string[]) => slice('web', ips.map(ip => ({ ip })), [{ name: 'http', port: 8080 }]);
const restore = (svcs: any[], slices: any[]) => mask(iptablesRestore(servicePorts(svcs, bySvc(...slices), 'ip'), facts)).split('\n');
const C = '-m comment --comment "default/web/tcp/http"';

test('ClusterIP with endpoints: the service chain masquerades off-network clients and picks by probability; endpoints hairpin and DNAT', () => {
  const lines = restore([web()], [eps('10.42.0.2', '10.42.0.3')]);
  assert.ok(lines.includes(`-A ORCH-SERVICES -d 10.96.0.10/32 -p tcp -m tcp --dport 80 ${C} -j ORCH-SVC-H`));
  assert.deepEqual(lines.filter(l => l.startsWith('-A ORCH-SVC-H')), [
    `-A ORCH-SVC-H ! -s 10.42.0.0/16 -d 10.96.0.10/32 -p tcp -m tcp --dport 80 ${C} -j ORCH-MARK-MASQ`,
    `-A ORCH-SVC-H ${C} -m statistic --mode random --probability 0.5000000000 -j ORCH-SEP-H`,
    `-A ORCH-SVC-H ${C} -j ORCH-SEP-H`,
  ]);
  assert.deepEqual(lines.filter(l => l.startsWith('-A ORCH-SEP-H')).sort(), [
    `-A ORCH-SEP-H -p tcp -m tcp ${C} -j DNAT --to-destination 10.42.0.2:8080`,
    `-A ORCH-SEP-H -p tcp -m tcp ${C} -j DNAT --to-destination 10.42.0.3:8080`,
    `-A ORCH-SEP-H -s 10.42.0.2/32 ${C} -j ORCH-MARK-MASQ`,
    `-A ORCH-SEP-H -s 10.42.0.3/32 ${C} -j ORCH-MARK-MASQ`,
  ]);
  // node ports are looked at last, on local addresses
  assert.equal(lines.filter(l => l.startsWith('-A ORCH-SERVICES')).at(-1), '-A ORCH-SERVICES -m addrtype --dst-type LOCAL -j ORCH-NODEPORTS');
});

test('no endpoints: REJECT in the filter table for the ClusterIP and the node port', () => {
  const lines = restore([web({ type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })], []);
  const filter = lines.slice(lines.indexOf('*filter'));
  assert.ok(filter.includes(`-A ORCH-SERVICES -d 10.96.0.10/32 -p tcp -m tcp --dport 80 ${C} -j REJECT`));
  assert.ok(filter.includes(`-A ORCH-EXTERNAL-SERVICES -m addrtype --dst-type LOCAL -p tcp -m tcp --dport 30080 ${C} -j REJECT`));
  assert.ok(!lines.some(l => l.startsWith('-A ORCH-SVC-')));
});

test('affinity with recent; Local external policy through the local chain', () => {
  const aff = restore([web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 90 } } })], [eps('10.42.0.2')]);
  assert.ok(aff.some(l => /^-A ORCH-SVC-H .* -m recent --name ORCH-SEP-H --mask 255\.255\.255\.255 --rsource --rcheck --seconds 90 --reap -j ORCH-SEP-H$/.test(l)));
  assert.ok(aff.some(l => /^-A ORCH-SEP-H -p tcp -m tcp -m recent --name ORCH-SEP-H .* --set .* -j DNAT/.test(l)));
  const local = restore([web({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })], [slice('web', [{ ip: '10.42.0.2', node: 'node-a' }, { ip: '10.42.1.2', node: 'node-b' }], [{ name: 'http', port: 8080 }])]);
  assert.deepEqual(local.filter(l => l.startsWith('-A ORCH-EXT-H')), [
    `-A ORCH-EXT-H -s 10.42.0.0/16 ${C} -j ORCH-SVC-H`,
    `-A ORCH-EXT-H -m addrtype --src-type LOCAL ${C} -j ORCH-MARK-MASQ`,
    `-A ORCH-EXT-H -m addrtype --src-type LOCAL ${C} -j ORCH-SVC-H`,
    `-A ORCH-EXT-H ${C} -j ORCH-SVL-H`,
  ]);
  assert.deepEqual(local.filter(l => l.startsWith('-A ORCH-SVL-H')), [`-A ORCH-SVL-H ${C} -j ORCH-SEP-H`]);
});

test('chains found and no longer wanted are flushed and deleted; cleanup removes all', () => {
  const found = existingChains('*nat\n:PREROUTING ACCEPT [0:0]\n:ORCH-SVC-OLD - [0:0]\n:ORCH-SERVICES - [0:0]\nCOMMIT\n*filter\n:ORCH-SERVICES - [0:0]\nCOMMIT\n');
  assert.deepEqual(found, { nat: ['ORCH-SVC-OLD', 'ORCH-SERVICES'], filter: ['ORCH-SERVICES'] });
  const lines = iptablesRestore([], facts, found).split('\n');
  assert.ok(lines.includes(':ORCH-SVC-OLD - [0:0]') && lines.includes('-X ORCH-SVC-OLD'));
  assert.ok(!lines.includes('-X ORCH-SERVICES'));
  assert.equal(iptablesCleanup(found), '*nat\n:ORCH-SVC-OLD - [0:0]\n:ORCH-SERVICES - [0:0]\n-X ORCH-SVC-OLD\n-X ORCH-SERVICES\nCOMMIT\n*filter\n:ORCH-SERVICES - [0:0]\n-X ORCH-SERVICES\nCOMMIT\n');
});

test('through iptables-restore: written, rewritten without a removed Service, cleaned up', requires((process.getuid?.() !== 0 && 'needs root') || (!findIptables() && 'iptables not installed')), async t => {
  const prefix = `O${process.pid % 100000}-`;
  const writer = iptablesWriter(findIptables(), prefix);
  t.after(() => writer.cleanup());
  const saved = () => execFileSync('iptables-save').toString();
  const ports = servicePorts([web({ sessionAffinity: 'ClientIP' }), service('other', { clusterIP: '10.96.0.11', ports: [{ port: 81 }] })], bySvc(eps('10.42.0.2')), 'ip');
  await writer.sync(ports, facts);
  let now = saved();
  assert.match(now, new RegExp(`-A ${prefix}SERVICES -d 10\\.96\\.0\\.10/32 -p tcp -m tcp --dport 80 .*-j ${prefix}SVC-`));
  assert.match(now, new RegExp(`-A ${prefix}SERVICES -d 10\\.96\\.0\\.11/32 -p tcp -m tcp --dport 81 .*-j REJECT`));
  assert.match(now, new RegExp(`-A PREROUTING -j ${prefix}SERVICES`));
  await writer.sync(ports.filter(p => p.name === 'other'), facts);
  now = saved();
  assert.doesNotMatch(now, new RegExp(`${prefix}SVC-|${prefix}SEP-`));
  await writer.sync(ports, facts);
  await writer.cleanup();
  assert.doesNotMatch(saved(), new RegExp(prefix));
});
