import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startReplicaController } from '../../../../src/controllers/replicaset/controller.ts';
import { replicaSetKind, replicationControllerKind } from '../../../../src/controllers/replicaset/kinds.ts';
import { ownedPodInformer } from '../../../../src/controllers/owned-pods.ts';
import { eventually, markReady, startInProcessApi } from '../in-process-api.ts';

const ns = 'default';
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'registry.local/app:1.0' }] } };

test('a ReplicaSet gets its pods, owned and named from it; status counts ready pods; scaling down deletes', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startReplicaController(client, silentLogger, { kind: replicaSetKind });
  t.after(() => ctl.stop());

  const rs = await client.create(rsPath, { metadata: { name: 'web' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template } });
  const pods = await eventually(async () => { const l = await client.list(podsPath); return l.items.length === 3 && l.items; }, '3 pods');
  for (const p of pods) {
    assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(p.metadata.labels, { app: 'web' });
  }
  await eventually(async () => (await client.get(`${rsPath}/web`)).status?.replicas === 3, 'status.replicas 3');
  await markReady(client, ns, pods[0].metadata.name);
  await markReady(client, ns, pods[1].metadata.name);
  const st = await eventually(async () => { const s = (await client.get(`${rsPath}/web`)).status; return s?.readyReplicas === 2 && s; }, 'two ready');
  assert.deepEqual(st, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1, terminatingReplicas: 0 });

  // scaling to 1 deletes the not-ready pod first
  await client.patch(`${rsPath}/web`, { spec: { replicas: 1 } });
  const left = await eventually(async () => { const l = (await client.list(podsPath)).items.filter((p: any) => !p.metadata.deletionTimestamp); return l.length === 1 && l; }, 'one pod left');
  assert.ok([pods[0].metadata.name, pods[1].metadata.name].includes(left[0].metadata.name), 'a ready pod is kept');
  const s2 = await eventually(async () => { const s = (await client.get(`${rsPath}/web`)).status; return s?.observedGeneration === 2 && s.replicas === 1 && s; }, 'status after scale');
  assert.equal(s2.readyReplicas, 1);
  // exactly the two extra pods were deleted: no double deletion, no re-creation
  const events = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.involvedObject.name === 'web');
  assert.equal(events.filter((e: any) => e.reason === 'SuccessfulCreate').length, 3);
  await eventually(async () => (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.reason === 'SuccessfulDelete').length === 2, 'two delete events');
  const del = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.find((e: any) => e.reason === 'SuccessfulDelete');
  assert.match(del.message, /^Deleted pod: web-[a-z0-9]{5}$/);
  assert.equal(del.source.component, 'replicaset-controller');
});

test('orphans the selector matches are adopted, pods it no longer matches released', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const orphan = await client.create(podsPath, { metadata: { name: 'stray', labels: { app: 'web' } }, spec: template.spec });
  const other = await client.create(podsPath, { metadata: { name: 'other', labels: { app: 'db' } }, spec: template.spec });
  const ctl = startReplicaController(client, silentLogger, { kind: replicaSetKind });
  t.after(() => ctl.stop());
  const rs = await client.create(rsPath, { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } });
  await eventually(async () => (await client.list(podsPath)).items.length === 3, 'one created beside the adopted one');
  const adopted = await client.get(`${podsPath}/stray`);
  assert.equal(adopted.metadata.ownerReferences[0].uid, rs.metadata.uid);
  assert.equal(adopted.metadata.ownerReferences[0].controller, true);
  assert.equal(adopted.metadata.uid, orphan.metadata.uid);
  assert.equal((await client.get(`${podsPath}/other`)).metadata.ownerReferences, undefined);
  void other;

  // relabelled out of the selector: released, and replaced
  await client.patch(`${podsPath}/stray`, { metadata: { labels: { app: 'debug' } } });
  await eventually(async () => !(await client.get(`${podsPath}/stray`)).metadata.ownerReferences?.length, 'released');
  await eventually(async () => (await client.list(podsPath, { labelSelector: 'app=web' })).items.length === 2, 'replaced');
});

test('a ReplicationController selects by its label map and keeps replicas', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startReplicaController(client, silentLogger, { kind: replicationControllerKind });
  t.after(() => ctl.stop());
  const rc = await client.create(`/api/v1/namespaces/${ns}/replicationcontrollers`, { metadata: { name: 'old' }, spec: { replicas: 2, selector: { app: 'old' }, template: { ...template, metadata: { labels: { app: 'old' } } } } });
  const pods = await eventually(async () => { const l = await client.list(podsPath); return l.items.length === 2 && l.items; }, '2 pods');
  assert.equal(pods[0].metadata.ownerReferences[0].kind, 'ReplicationController');
  assert.equal(pods[0].metadata.ownerReferences[0].uid, rc.metadata.uid);
  const st = await eventually(async () => { const s = (await client.get(`/api/v1/namespaces/${ns}/replicationcontrollers/old`)).status; return s?.replicas === 2 && s; }, 'status');
  assert.equal(st.terminatingReplicas, undefined, 'ReplicationControllers do not report terminating pods');
  // a deleted pod is replaced
  await client.delete(`${podsPath}/${pods[0].metadata.name}`, { gracePeriodSeconds: 0 });
  await eventually(async () => { const l = (await client.list(podsPath)).items; return l.length === 2 && !l.some((p: any) => p.metadata.name === pods[0].metadata.name); }, 'replacement');
});

test('minReadySeconds holds availability back; pods being deleted count as terminating', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startReplicaController(client, silentLogger, { kind: replicaSetKind });
  t.after(() => ctl.stop());
  await client.create(rsPath, { metadata: { name: 'slow' }, spec: { replicas: 1, minReadySeconds: 3, selector: { matchLabels: { app: 'web' } }, template } });
  const [pod] = await eventually(async () => { const l = await client.list(podsPath); return l.items.length === 1 && l.items; }, 'a pod');
  // placed on a node, so that deleting it waits for the node (graceful)
  await client.create(`${podsPath}/${pod.metadata.name}/binding`, { metadata: { name: pod.metadata.name }, target: { kind: 'Node', name: 'n1' } });
  // ready since the current second: at least 2 s pass before it counts as available
  await markReady(client, ns, pod.metadata.name);
  const early = await eventually(async () => { const s = (await client.get(`${rsPath}/slow`)).status; return s?.readyReplicas === 1 && s; }, 'ready');
  assert.equal(early.availableReplicas, 0, 'not yet available');
  await eventually(async () => (await client.get(`${rsPath}/slow`)).status?.availableReplicas === 1, 'available after minReadySeconds', 10_000);

  await client.patch(`${rsPath}/slow`, { spec: { replicas: 0 } });
  const st = await eventually(async () => { const s = (await client.get(`${rsPath}/slow`)).status; return s?.observedGeneration === 2 && s.terminatingReplicas === 1 && s; }, 'terminating counted');
  assert.equal(st.replicas, 0);
  assert.ok((await client.get(`${podsPath}/${pod.metadata.name}`)).metadata.deletionTimestamp);
});

test('a lagging pod watch does not make the controller create twice (expectations)', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  // the controller hears of pods 700 ms late, while its own status writes wake it up meanwhile
  const real = ownedPodInformer(client);
  const handlers: Record<string, Array<(...a: any[]) => void>> = { add: [], update: [], delete: [] };
  const late = (event: string) => (...args: any[]) => { setTimeout(() => handlers[event]!.forEach(h => h(...args)), 700).unref(); };
  real.on('add', late('add')).on('update', late('update')).on('delete', late('delete'));
  const lagging = { ...real, on(event: 'add' | 'update' | 'delete', fn: (...a: any[]) => void) { handlers[event]!.push(fn); return lagging; } } as unknown as typeof real;
  real.start();
  t.after(() => real.stop());
  await real.synced();
  const ctl = startReplicaController(client, silentLogger, { kind: replicaSetKind, pods: lagging });
  t.after(() => ctl.stop());

  await client.create(rsPath, { metadata: { name: 'web' }, spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template } });
  await eventually(async () => (await client.list(podsPath)).items.length >= 4, '4 pods');
  // poke the controller while the creations are still unseen
  await client.patch(`${rsPath}/web`, { metadata: { labels: { poke: '1' } } });
  await new Promise(r => setTimeout(r, 1500));
  assert.equal((await client.list(podsPath)).items.length, 4);
  const st = await eventually(async () => { const s = (await client.get(`${rsPath}/web`)).status; return s?.replicas === 4 && s; }, 'status');
  assert.equal(st.replicas, 4);
});
