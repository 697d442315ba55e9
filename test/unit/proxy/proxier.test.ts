// The proxy's loop against a real API server in this process: the first sync writes the whole
// table, later changes only their difference, a clean stop removes the table, and a restart
// reconciles what it finds. Once with a recording packet filter, once through nft itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/api/log.ts';
import { startProxier, type PacketFilter, type SyncReport } from '../../../src/proxy/proxier.ts';
import { nftPacketFilter } from '../../../src/proxy/nft-filter.ts';
import type { ExistingTable } from '../../../src/proxy/ruleset.ts';
import { findNft, listNftTable, runNft, deleteNftTable } from '../../../src/netfilter/nft.ts';
import { startInProcessApi, eventually } from '../controllers/in-process-api.ts';
import { requires } from '../../support/requires.ts';
import { service, slice } from './fixtures.ts';

function recorder(existing?: ExistingTable) {
  const calls: string[] = [];
  const filter: PacketFilter = {
    apply: async script => { calls.push(script); },
    existing: async () => existing,
    deleteTable: async (family, table) => { calls.push(`delete table ${family} ${table}`); },
  };
  return { calls, filter };
}

test('proxier: full first sync, partial updates, clean stop, reconcile on restart', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const svcs = '/api/v1/namespaces/default/services';
  const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  await client.create(svcs, service('web', { clusterIP: '10.96.0.50', ports: [{ name: 'http', port: 80 }] }));
  await client.create(slices, slice('web', [{ ip: '10.42.0.2' }], [{ name: 'http', port: 8080 }], { name: 'web-1' }));

  const rec = recorder();
  const reports: SyncReport[] = [];
  const proxier = startProxier({ client, nodeName: 'node-a', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], filter: rec.filter, minSyncIntervalMs: 0, log: silentLogger, table: 'ut', onSync: r => reports.push(r) });
  await proxier.ready();
  assert.equal(reports[0]!.full, true);
  assert.match(rec.calls[0]!, /^add table ip ut /);
  assert.match(rec.calls[0]!, /add element ip ut service-ips \{ 10\.96\.0\.1 \. tcp \. 443 : goto service-[0-9A-F]{8}-default\/kubernetes\/tcp\/https, 10\.96\.0\.50 \. tcp \. 80 : goto service-[0-9A-F]{8}-default\/web\/tcp\/http \}/);

  // one more endpoint: a partial sync that names no other service
  const s = await client.get(`${slices}/web-1`);
  s.endpoints.push({ addresses: ['10.42.0.3'], conditions: { ready: true }, nodeName: 'node-a' });
  await client.update(`${slices}/web-1`, s);
  await eventually(async () => reports.some(r => /10\.42\.0\.3/.test(r.scripts.ip ?? '')), 'the new endpoint programmed');
  const partial = reports.find(r => /10\.42\.0\.3/.test(r.scripts.ip ?? ''))!;
  assert.equal(partial.full, false);
  assert.ok(partial.scripts.ip!.split('\n').filter(Boolean).every(l => l.includes('default/web/')), partial.scripts.ip);
  assert.doesNotMatch(partial.scripts.ip!, /^add table/m);

  // the service goes: its address is no longer a service address
  await client.delete(`${svcs}/web`);
  await eventually(async () => !proxier.current().ip!.sets.get('cluster-ips')!.elements.includes('10.96.0.50'), 'the deleted service gone');
  assert.match(rec.calls.at(-1)!, /delete element ip ut cluster-ips \{ 10\.96\.0\.50 \}/);

  await proxier.stop(true);
  assert.equal(rec.calls.at(-1), 'delete table ip ut');

  // a new run over a table an earlier run left: its whole table, and the leftovers deleted
  const again = recorder({ chains: ['service-0000AAAA-default/web/tcp/http', 'services'], sets: [{ name: 'service-ips', kind: 'map' }] });
  const p2 = startProxier({ client, nodeName: 'node-a', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], filter: again.filter, minSyncIntervalMs: 0, log: silentLogger, table: 'ut' });
  await p2.ready();
  assert.match(again.calls[0]!, /\ndelete chain ip ut service-0000AAAA-default\/web\/tcp\/http\n/);
  await p2.stop(false);
  assert.doesNotMatch(again.calls.at(-1)!, /^delete table/, 'a stop without cleanup leaves the rules');
});

test('proxier without a packet filter: the rules are computed and kept for reading (the simulated runtime)', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const proxier = startProxier({ client: api.client, nodeName: 'n', nodeIPs: [], clusterCIDRs: ['10.42.0.0/16'], log: silentLogger });
  await proxier.ready();
  assert.deepEqual(proxier.current().ip!.sets.get('service-ips')!.elements.map(e => e.replace(/-[0-9A-F]{8}-/, '-H-')), ['10.96.0.1 . tcp . 443 : goto service-H-default/kubernetes/tcp/https']);
  await proxier.stop(true);
});

test('proxier through nft: the table appears, follows a change, and goes on a clean stop', requires(!findNft() && 'nft not installed'), async t => {
  const table = `proxy-ut-loop-${process.pid}`;
  const api = await startInProcessApi();
  t.after(async () => { await deleteNftTable('ip', table); await api.close(); });
  const { client } = api;
  // node ports from the Node's addresses
  await client.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-x' } });
  const node = await client.get('/api/v1/nodes/node-x');
  node.status = { addresses: [{ type: 'InternalIP', address: '192.0.2.77' }, { type: 'Hostname', address: 'node-x' }] };
  await client.update('/api/v1/nodes/node-x/status', node);
  const proxier = startProxier({ client, nodeName: 'node-x', clusterCIDRs: ['10.42.0.0/16'], filter: nftPacketFilter(), minSyncIntervalMs: 0, log: silentLogger, table });
  await proxier.ready();
  assert.match(await runNft(['list', 'set', 'ip', table, 'nodeport-ips']), /192\.0\.2\.77/);
  await client.create('/api/v1/namespaces/default/services', service('np', { type: 'NodePort', clusterIP: '10.96.0.60', ports: [{ port: 80, nodePort: 30999 }] }));
  await eventually(async () => /tcp \. 30999 : goto reject-chain/.test(await runNft(['list', 'map', 'ip', table, 'no-endpoint-nodeports'])), 'the node port without endpoints rejected');
  await client.create('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', slice('np', [{ ip: '10.42.0.7' }], [{ port: 8080 }]));
  await eventually(async () => /tcp \. 30999 : goto external-/.test(await runNft(['list', 'map', 'ip', table, 'service-nodeports'])), 'the node port programmed');
  await proxier.stop(true);
  assert.equal(await listNftTable('ip', table), undefined);
});

test('proxier with the iptables fallback: each sync hands it every IPv4 service port; a clean stop cleans up', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const calls: string[] = [];
  const iptables = {
    sync: async (ports: Array<{ namespace: string; name: string }>) => { calls.push(`sync ${ports.map(p => `${p.namespace}/${p.name}`).join(',')}`); return ''; },
    cleanup: async () => { calls.push('cleanup'); },
  };
  const proxier = startProxier({ client: api.client, nodeName: 'n', nodeIPs: [], clusterCIDRs: ['10.42.0.0/16'], iptables, minSyncIntervalMs: 0, log: silentLogger });
  await proxier.ready();
  assert.deepEqual(calls, ['sync default/kubernetes']);
  await api.client.create('/api/v1/namespaces/default/services', service('web', { clusterIP: '10.96.0.70', ports: [{ port: 80 }] }));
  await eventually(async () => calls.includes('sync default/kubernetes,default/web'), 'the new service handed over');
  await proxier.stop(true);
  assert.equal(calls.at(-1), 'cleanup');
});
