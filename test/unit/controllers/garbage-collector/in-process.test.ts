// The garbage collector against a real API server in this process: ConfigMaps owned by
// ConfigMaps (and a ClusterRole) deleted in the background, in the foreground, orphaned, and
// left with dangling or cross-namespace owner references.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer, type RunningServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../../src/client/rest.ts';
import { startGarbageCollector } from '../../../../src/controllers/garbage-collector/garbage-collector.ts';

let dir: string;
let server: RunningServer;
let client: Client;
let gc: { stop(): void };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-gc-'));
  server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  client = createClient(await loadKubeconfig(server.kubeconfigPath));
  gc = startGarbageCollector(client, silentLogger, { resyncMs: 500 });
});

after(async () => {
  gc.stop();
  client.close();
  await server.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const cms = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
type Obj = { metadata: { name: string; uid: string; namespace?: string; finalizers?: string[]; deletionTimestamp?: string; ownerReferences?: unknown[] } };

async function namespace(name: string): Promise<void> {
  await client.create('/api/v1/namespaces', { metadata: { name } });
}

async function configMap(ns: string, name: string, owners: Array<Obj | { kind?: string; apiVersion?: string; name: string; uid: string; blockOwnerDeletion?: boolean }> = [], extra: Record<string, unknown> = {}): Promise<Obj> {
  const ownerReferences = owners.map(o => ('metadata' in o
    ? { apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid }
    : { apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'ConfigMap', name: o.name, uid: o.uid, ...(o.blockOwnerDeletion ? { blockOwnerDeletion: true } : {}) }));
  return client.create(cms(ns), { metadata: { name, ...(ownerReferences.length ? { ownerReferences } : {}), ...extra } });
}

async function get(path: string): Promise<Obj | undefined> {
  try { return await client.get(path); } catch (err: any) { if (err?.code === 404 || err?.status?.code === 404 || /not found/.test(String(err))) return undefined; throw err; }
}

async function eventually<T>(fn: () => Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

test('Background: the dependents of a deleted owner are collected, and theirs in turn', async () => {
  await namespace('bg');
  const owner = await configMap('bg', 'owner');
  const child = await configMap('bg', 'child', [owner]);
  await configMap('bg', 'grandchild', [child]);
  await configMap('bg', 'bystander');
  await client.delete(`${cms('bg')}/owner`, { propagationPolicy: 'Background' });
  await eventually(async () => !(await get(`${cms('bg')}/child`)) && !(await get(`${cms('bg')}/grandchild`)), 'child and grandchild collected');
  assert.ok(await get(`${cms('bg')}/bystander`), 'an object without owners is left alone');
});

test('Foreground: the owner stays, being deleted, until its blocking dependents are gone', async () => {
  await namespace('fg');
  const owner = await configMap('fg', 'owner');
  // the dependent's own finalizer keeps it (and so its owner) for as long as the test wants
  await configMap('fg', 'blocker', [{ name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true }], { finalizers: ['example.com/hold'] });
  await configMap('fg', 'loose', [owner]);
  await client.delete(`${cms('fg')}/owner`, { propagationPolicy: 'Foreground' });

  const blocker = await eventually(async () => { const b = await get(`${cms('fg')}/blocker`); return b?.metadata.deletionTimestamp ? b : undefined; }, 'the blocking dependent deleted');
  assert.deepEqual(blocker.metadata.finalizers, ['example.com/hold']);
  const held = await get(`${cms('fg')}/owner`);
  assert.ok(held?.metadata.deletionTimestamp, 'the owner is being deleted');
  assert.deepEqual(held?.metadata.finalizers, ['foregroundDeletion']);

  // the blocker goes: the owner's finalizer is removed and it goes; the non-blocking dependent follows
  await client.patch(`${cms('fg')}/blocker`, { metadata: { finalizers: null } });
  await eventually(async () => !(await get(`${cms('fg')}/owner`)), 'owner deleted');
  await eventually(async () => !(await get(`${cms('fg')}/loose`)), 'non-blocking dependent collected');
});

test('Foreground through generations: a blocking dependent with dependents of its own is deleted in the foreground too', async () => {
  await namespace('fg3');
  const owner = await configMap('fg3', 'owner');
  const child = await configMap('fg3', 'child', [{ name: 'owner', uid: owner.metadata.uid, blockOwnerDeletion: true }]);
  await configMap('fg3', 'grandchild', [{ name: 'child', uid: child.metadata.uid, blockOwnerDeletion: true }], { finalizers: ['example.com/hold'] });
  await client.delete(`${cms('fg3')}/owner`, { propagationPolicy: 'Foreground' });
  const c = await eventually(async () => { const x = await get(`${cms('fg3')}/child`); return x?.metadata.deletionTimestamp ? x : undefined; }, 'child deleted in the foreground');
  assert.deepEqual(c.metadata.finalizers, ['foregroundDeletion']);
  await eventually(async () => !!(await get(`${cms('fg3')}/grandchild`))?.metadata.deletionTimestamp, 'grandchild deleted');
  assert.ok(await get(`${cms('fg3')}/owner`), 'the owner waits for the whole line');
  await client.patch(`${cms('fg3')}/grandchild`, { metadata: { finalizers: null } });
  await eventually(async () => !(await get(`${cms('fg3')}/owner`)) && !(await get(`${cms('fg3')}/child`)), 'child, then owner, gone');
});

test('Orphan: dependents lose the owner reference and stay; the orphan finalizer goes, and the owner with it', async () => {
  await namespace('orph');
  const owner = await configMap('orph', 'owner');
  const other = await configMap('orph', 'other-owner');
  await configMap('orph', 'a', [owner]);
  await configMap('orph', 'b', [owner, other]);
  await client.delete(`${cms('orph')}/owner`, { propagationPolicy: 'Orphan' });
  await eventually(async () => !(await get(`${cms('orph')}/owner`)), 'owner deleted');
  const a = await get(`${cms('orph')}/a`);
  const b = await get(`${cms('orph')}/b`);
  assert.equal(a?.metadata.ownerReferences, undefined);
  assert.deepEqual(b?.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'other-owner', uid: other.metadata.uid }]);
});

test('dangling references: an absent owner or another uid makes the dependent garbage; a solid owner keeps it', async () => {
  await namespace('dangle');
  await configMap('dangle', 'ghost-child', [{ name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' }]);
  await configMap('dangle', 'real');
  await configMap('dangle', 'wrong-uid-child', [{ name: 'real', uid: '00000000-0000-0000-0000-000000000002' }]);
  const solid = await configMap('dangle', 'solid');
  await configMap('dangle', 'mixed', [solid, { name: 'ghost', uid: '00000000-0000-0000-0000-000000000001' }]);
  await eventually(async () => !(await get(`${cms('dangle')}/ghost-child`)) && !(await get(`${cms('dangle')}/wrong-uid-child`)), 'dangling dependents collected');
  const mixed = await eventually(async () => { const m = await get(`${cms('dangle')}/mixed`); return m?.metadata.ownerReferences?.length === 1 ? m : undefined; }, 'dangling reference removed');
  assert.deepEqual(mixed.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'solid', uid: solid.metadata.uid }]);
  assert.ok(await get(`${cms('dangle')}/real`));
  // an owner of a kind discovery does not know is not taken for absent: the dependent stays
  await configMap('dangle', 'unknown-kind-child', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '00000000-0000-0000-0000-000000000003' }]);
  await new Promise(r => setTimeout(r, 1000));
  assert.ok(await get(`${cms('dangle')}/unknown-kind-child`));
});

test('an owner in another namespace is not an owner: the event says so and the dependent is collected as ownerless', async () => {
  await namespace('ns-a');
  await namespace('ns-b');
  const owner = await configMap('ns-a', 'owner');
  // give the collector time to see the owner first (the good parent, then bad child order)
  await new Promise(r => setTimeout(r, 300));
  const stray = await configMap('ns-b', 'stray', [owner]);
  const events = await eventually(async () => {
    const list = (await client.list('/api/v1/namespaces/ns-b/events')).items as Array<{ reason: string; message: string; type: string; involvedObject: { name: string; uid: string }; source: { component: string } }>;
    return list.length ? list : undefined;
  }, 'OwnerRefInvalidNamespace event');
  const e = events[0]!;
  assert.equal(e.reason, 'OwnerRefInvalidNamespace');
  assert.equal(e.type, 'Warning');
  assert.equal(e.involvedObject.uid, stray.metadata.uid);
  assert.equal(e.source.component, 'garbage-collector-controller');
  assert.equal(e.message, `ownerRef [v1/ConfigMap, namespace: ns-b, name: owner, uid: ${owner.metadata.uid}] does not exist in namespace "ns-b"`);
  await eventually(async () => !(await get(`${cms('ns-b')}/stray`)), 'the stray dependent collected');
  assert.ok(await get(`${cms('ns-a')}/owner`), 'the owner is untouched');
});

test('a cluster-scoped dependent of a namespaced owner is never collected through it', async () => {
  await namespace('scoped');
  const owner = await configMap('scoped', 'owner');
  await new Promise(r => setTimeout(r, 300));
  const role = await client.create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    metadata: { name: 'gc-test-role', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] }, rules: [],
  });
  const events = await eventually(async () => {
    const list = (await client.list('/api/v1/namespaces/default/events')).items as Array<{ reason: string; message: string; involvedObject: { uid: string } }>;
    const mine = list.filter(e => e.involvedObject.uid === role.metadata.uid);
    return mine.length ? mine : undefined;
  }, 'event for the cluster-scoped dependent');
  assert.equal(events[0]!.reason, 'OwnerRefInvalidNamespace');
  assert.equal(events[0]!.message, `ownerRef [v1/ConfigMap, namespace: , name: owner, uid: ${owner.metadata.uid}] does not exist in namespace ""`);
  // deleting the owner leaves it alone too
  await client.delete(`${cms('scoped')}/owner`, { propagationPolicy: 'Background' });
  await new Promise(r => setTimeout(r, 1000));
  assert.ok(await get('/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-test-role'));
});

test('the collector watches metadata only: its informers list and watch PartialObjectMetadata', async () => {
  const { createInformer } = await import('../../../../src/client/informer.ts');
  await namespace('meta');
  await configMap('meta', 'listed');
  const informer = createInformer<any>(client, cms('meta'), { metadataOnly: true });
  const seen: any[] = [];
  informer.on('add', o => seen.push(o));
  informer.start();
  try {
    await informer.synced();
    await client.create(cms('meta'), { metadata: { name: 'watched' }, data: { big: 'x'.repeat(1000) } });
    await eventually(async () => seen.length === 2, 'the watched object');
    for (const o of seen) {
      assert.equal(o.kind, 'PartialObjectMetadata');
      assert.equal(o.apiVersion, 'meta.k8s.io/v1');
      assert.equal(o.data, undefined);
      assert.ok(o.metadata.uid);
    }
  } finally {
    informer.stop();
  }
});
