// Sync scripts as text, and the same scripts through the real nft tool (where it is installed):
// a full sync that reconciles a table left behind, partial syncs that touch only what changed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateRuleset, type NodeFacts } from '../../../src/proxy/rules.ts';
import { existingTable, fullSyncScript, partialSyncScript, renderRuleset, type Ruleset } from '../../../src/proxy/ruleset.ts';
import { servicePorts } from '../../../src/proxy/service-ports.ts';
import { applyNft, deleteNftTable, findNft, listNftTable, runNft } from '../../../src/netfilter/nft.ts';
import { requires } from '../../support/requires.ts';
import { bySvc, service, slice, type Ep } from './fixtures.ts';

const table = `proxy-ut-${process.pid}`;
const facts: NodeFacts = { nodeName: 'node-a', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], localhostNodePorts: true, table };
const web = (spec: Record<string, unknown> = {}) => service('web', { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80 }], ...spec });
const other = service('other', { clusterIP: '10.96.0.20', type: 'NodePort', ports: [{ port: 81, nodePort: 30081 }] });
const gen = (svcs: any[], webEps: Ep[], otherEps: Ep[] = [{ ip: '10.42.0.9' }]): Ruleset =>
  generateRuleset('ip', servicePorts(svcs, bySvc(slice('web', webEps, [{ name: 'http', port: 8080 }]), slice('other', otherEps, [{ port: 8081 }])), 'ip'), facts);
const lines = (script: string) => script.split('\n').filter(Boolean);

test('a partial sync of an unchanged table is empty', () => {
  const a = gen([web(), other], [{ ip: '10.42.0.2' }]);
  assert.equal(partialSyncScript(a, gen([web(), other], [{ ip: '10.42.0.2' }])), '');
});

test('a new endpoint: its chain added, the service chain flushed and refilled, nothing of other services touched', () => {
  const a = gen([web(), other], [{ ip: '10.42.0.2' }]);
  const b = gen([web(), other], [{ ip: '10.42.0.2' }, { ip: '10.42.0.3' }]);
  const script = lines(partialSyncScript(a, b));
  assert.ok(script.every(l => l.includes('default/web/')), script.join('\n'));
  assert.equal(script.filter(l => l.startsWith('add chain')).length, 1);
  assert.match(script.find(l => l.startsWith('add chain'))!, /endpoint-[0-9A-F]{8}-default\/web\/tcp\/http__10\.42\.0\.3\/8080$/);
  assert.deepEqual(script.filter(l => l.startsWith('flush')).map(l => l.replace(/-[0-9A-F]{8}-/, '-H-')), [`flush chain ip ${table} service-H-default/web/tcp/http`]);
  assert.ok(script.some(l => /add rule .* numgen random mod 2 /.test(l)));
});

test('the last endpoint gone: map elements moved to the reject map before the chains are deleted', () => {
  const a = gen([web(), other], [{ ip: '10.42.0.2' }]);
  const b = gen([web(), other], []);
  const script = lines(partialSyncScript(a, b));
  const at = (re: RegExp) => script.findIndex(l => re.test(l));
  const delElement = at(/^delete element .* service-ips \{ 10\.96\.0\.10 \. tcp \. 80 \}$/);
  const addReject = at(/^add element .* no-endpoint-services \{ 10\.96\.0\.10 \. tcp \. 80 : goto reject-chain \}$/);
  const delChain = at(/^delete chain .* service-/);
  assert.ok(delElement >= 0 && addReject >= 0 && delChain >= 0, script.join('\n'));
  assert.ok(delElement < delChain, 'the map element that jumps to a chain goes before the chain');
  assert.ok(at(/^flush chain .* service-/) < delChain, 'a chain is emptied before it is deleted');
});

test('a full sync declares everything, refills maps and removes what an earlier run left', () => {
  const r = gen([web(), other], [{ ip: '10.42.0.2' }]);
  const script = lines(fullSyncScript(r, { chains: ['service-OLD-gone/x/tcp/', 'nat-prerouting'], sets: [{ name: 'affinity-OLD', kind: 'set' }, { name: 'old-map', kind: 'map' }] }));
  assert.match(script[0]!, new RegExp(`^add table ip ${table} `));
  assert.ok(script.includes(`flush chain ip ${table} service-OLD-gone/x/tcp/`));
  assert.ok(script.includes(`flush map ip ${table} service-ips`));
  assert.ok(script.includes(`flush map ip ${table} old-map`));
  assert.deepEqual(script.slice(-3), [`delete chain ip ${table} service-OLD-gone/x/tcp/`, `delete set ip ${table} affinity-OLD`, `delete map ip ${table} old-map`]);
  // the affinity sets filled by packets are declared but never flushed
  const aff = gen([web({ sessionAffinity: 'ClientIP' }), other], [{ ip: '10.42.0.2' }]);
  const affScript = lines(fullSyncScript(aff));
  assert.ok(affScript.some(l => /^add set .* affinity-.* flags dynamic,timeout ; timeout 10800s/.test(l)));
  assert.ok(!affScript.some(l => /^flush set .* affinity-/.test(l)));
});

test('the chains and sets of a listed table', () => {
  const json = { nftables: [{ metainfo: {} }, { table: { family: 'ip', name: 't' } }, { chain: { name: 'services' } }, { set: { name: 'cluster-ips' } }, { map: { name: 'service-ips' } }, { rule: { chain: 'services' } }] };
  assert.deepEqual(existingTable(json), { chains: ['services'], sets: [{ name: 'cluster-ips', kind: 'set' }, { name: 'service-ips', kind: 'map' }] });
});

test('the scripts through nft: full, partial, a restart over leftovers, removal', requires(!findNft() && 'nft not installed'), async t => {
  t.after(() => deleteNftTable('ip', table));
  const a = gen([web({ sessionAffinity: 'ClientIP' }), other], [{ ip: '10.42.0.2' }]);
  await applyNft(fullSyncScript(a));
  // what nft holds is what was generated: every chain and set by name
  const listed = existingTable(await listNftTable('ip', table));
  assert.deepEqual(new Set(listed.chains), new Set(a.chains.keys()));
  assert.deepEqual(new Set(listed.sets.map(s => s.name)), new Set(a.sets.keys()));
  // partial syncs: an endpoint added, the other service's endpoints gone, a timeout changed
  const b = gen([web({ sessionAffinity: 'ClientIP' }), other], [{ ip: '10.42.0.2' }, { ip: '10.42.0.3' }], []);
  await applyNft(partialSyncScript(a, b));
  const c = gen([web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 30 } } }), other], [{ ip: '10.42.0.3' }], [{ ip: '10.42.0.9' }]);
  await applyNft(partialSyncScript(b, c));
  const now = existingTable(await listNftTable('ip', table));
  assert.deepEqual(new Set(now.chains), new Set(c.chains.keys()));
  assert.deepEqual(new Set(now.sets.map(s => s.name)), new Set(c.sets.keys()));
  const map = await runNft(['list', 'map', 'ip', table, 'service-ips']);
  assert.match(map, /10\.96\.0\.20 \. tcp \. 81 : goto service-/);
  // a restart that knows nothing of c: the full sync over what it finds leaves exactly d
  const d = gen([other], [], [{ ip: '10.42.0.9' }]);
  await applyNft(fullSyncScript(d, now));
  const after = existingTable(await listNftTable('ip', table));
  assert.deepEqual(new Set(after.chains), new Set(d.chains.keys()));
  assert.deepEqual(new Set(after.sets.map(s => s.name)), new Set(d.sets.keys()));
  assert.doesNotMatch(await runNft(['list', 'table', 'ip', table]), /default\/web\//);
  await deleteNftTable('ip', table);
  assert.equal(await listNftTable('ip', table), undefined);
});

test('renderRuleset writes a table nft accepts as it stands', requires(!findNft() && 'nft not installed'), async t => {
  const name = `${table}-r`;
  t.after(() => deleteNftTable('ip', name));
  const r = generateRuleset('ip', servicePorts([web({ sessionAffinity: 'ClientIP' })], bySvc(slice('web', [{ ip: '10.42.0.2' }], [{ name: 'http', port: 8080 }])), 'ip'), { ...facts, table: name });
  await applyNft(renderRuleset(r));
  assert.deepEqual(new Set(existingTable(await listNftTable('ip', name)).chains), new Set(r.chains.keys()));
});
