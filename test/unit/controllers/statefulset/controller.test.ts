import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startStatefulSetController } from '../../../../src/controllers/statefulset/controller.ts';
import { autoReady, eventually, markReady, startInProcessApi } from '../in-process-api.ts';

const ns = 'default';
const setsPath = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const claimsPath = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
const template = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'registry.local/db:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } };
const claimTemplate = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };

const live = async (client: any) => (await client.list(podsPath)).items.filter((p: any) => !p.metadata.deletionTimestamp);
const names = (pods: any[]) => pods.map(p => p.metadata.name).sort();

test('OrderedReady: pods made one at a time in ordinal order, each with its claim first; a deleted pod comes back with its name and claim', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startStatefulSetController(client, silentLogger);
  t.after(() => ctl.stop());
  const set = await client.create(setsPath, { metadata: { name: 'db' }, spec: { replicas: 3, serviceName: 'db-hl', selector: { matchLabels: { app: 'db' } }, template, volumeClaimTemplates: [claimTemplate] } });

  const first = await eventually(async () => { const l = await live(client); return l.length === 1 && l[0]; }, 'db-0');
  assert.equal(first.metadata.name, 'db-0');
  assert.equal(first.spec.hostname, 'db-0');
  assert.equal(first.spec.subdomain, 'db-hl');
  assert.equal(first.metadata.labels['statefulset.kubernetes.io/pod-name'], 'db-0');
  assert.equal(first.metadata.labels['apps.kubernetes.io/pod-index'], '0');
  assert.equal(first.metadata.labels.app, 'db');
  assert.match(first.metadata.labels['controller-revision-hash'], /^db-[a-z0-9]+$/);
  assert.deepEqual(first.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(first.spec.volumes.find((v: any) => v.name === 'data'), { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } });
  const claim = await client.get(`${claimsPath}/data-db-0`);
  assert.deepEqual(claim.metadata.labels, { app: 'db' });
  assert.equal(claim.metadata.ownerReferences, undefined, 'Retain/Retain leaves the claim unowned');
  // nothing more until db-0 is Running and Ready
  await new Promise(r => setTimeout(r, 300));
  assert.deepEqual(names(await live(client)), ['db-0']);

  await markReady(client, ns, 'db-0');
  await eventually(async () => names(await live(client)).join() === 'db-0,db-1', 'db-1 after db-0 is ready');
  await markReady(client, ns, 'db-1');
  await eventually(async () => names(await live(client)).join() === 'db-0,db-1,db-2', 'db-2 after db-1 is ready');
  await markReady(client, ns, 'db-2');
  const st = await eventually(async () => { const s = (await client.get(`${setsPath}/db`)).status; return s?.readyReplicas === 3 && s; }, 'three ready');
  assert.equal(st.replicas, 3);
  assert.equal(st.availableReplicas, 3);
  assert.equal(st.currentReplicas, 3);
  assert.equal(st.updatedReplicas, 3);
  assert.equal(st.observedGeneration, 1);
  assert.equal(st.currentRevision, st.updateRevision);
  assert.equal(st.collisionCount, 0);
  const revs = (await client.list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).items;
  assert.equal(revs.length, 1);
  assert.equal(revs[0].metadata.name, st.currentRevision);
  assert.equal(revs[0].revision, 1);
  assert.equal(revs[0].metadata.labels['controller-revision-hash'], st.currentRevision.slice(3));

  // a deleted pod comes back under its name, mounting the same claim
  const old = await client.get(`${podsPath}/db-1`);
  await client.delete(`${podsPath}/db-1`, { gracePeriodSeconds: 0 });
  const back = await eventually(async () => { const p = await client.get(`${podsPath}/db-1`).catch(() => undefined); return p && p.metadata.uid !== old.metadata.uid && p; }, 'db-1 again');
  assert.deepEqual(back.spec.volumes.find((v: any) => v.name === 'data'), { name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } });
  assert.equal((await client.list(claimsPath)).items.length, 3, 'no new claim');

  const events = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.involvedObject.name === 'db');
  assert.ok(events.some((e: any) => e.reason === 'SuccessfulCreate' && e.message === 'create Claim data-db-0 Pod db-0 in StatefulSet db success'));
  assert.ok(events.some((e: any) => e.reason === 'SuccessfulCreate' && e.message === 'create Pod db-0 in StatefulSet db successful'));
  assert.equal(events[0].source.component, 'statefulset-controller');

  // scale down removes the highest ordinal first, one at a time
  await markReady(client, ns, 'db-1');
  await client.patch(`${setsPath}/db`, { spec: { replicas: 1 } });
  await eventually(async () => names(await live(client)).join() === 'db-0', 'scaled to 1');
  const deletes = await eventually(async () => { const d = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.reason === 'SuccessfulDelete').map((e: any) => e.message); return d.length >= 2 && d; }, 'delete events');
  assert.deepEqual(deletes.slice(0, 2), ['delete Pod db-2 in StatefulSet db successful', 'delete Pod db-1 in StatefulSet db successful']);
  assert.equal((await client.list(claimsPath)).items.length, 3, 'Retain keeps the claims of scaled-away pods');
});

test('Parallel with a rolling update: all pods at once; a template change replaces pods from the highest ordinal, above the partition only', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startStatefulSetController(client, silentLogger);
  t.after(() => ctl.stop());
  const nodes = autoReady(client);
  t.after(() => nodes.stop());
  await client.create(setsPath, { metadata: { name: 'web' }, spec: { replicas: 3, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } }, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } } });
  const s1 = await eventually(async () => { const s = (await client.get(`${setsPath}/web`)).status; return s?.readyReplicas === 3 && s; }, 'three ready');
  const rev1 = s1.updateRevision;

  await client.patch(`${setsPath}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'registry.local/db:2' }] } } } }, 'application/strategic-merge-patch+json');
  const s2 = await eventually(async () => { const s = (await client.get(`${setsPath}/web`)).status; return s?.observedGeneration === 2 && s.updatedReplicas === 2 && s.readyReplicas === 3 && s; }, 'two updated');
  assert.notEqual(s2.updateRevision, rev1);
  assert.equal(s2.currentRevision, rev1, 'a partitioned update does not complete');
  assert.equal(s2.currentReplicas, 1);
  const byName = Object.fromEntries((await live(client)).map((p: any) => [p.metadata.name, p]));
  assert.equal(byName['web-0'].metadata.labels['controller-revision-hash'], rev1);
  assert.equal(byName['web-1'].metadata.labels['controller-revision-hash'], s2.updateRevision);
  assert.equal(byName['web-2'].metadata.labels['controller-revision-hash'], s2.updateRevision);

  // partition 0 finishes the rollout: current becomes the update revision
  await client.patch(`${setsPath}/web`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, 'application/strategic-merge-patch+json');
  const s3 = await eventually(async () => { const s = (await client.get(`${setsPath}/web`)).status; return s?.currentRevision === s2.updateRevision && s.currentReplicas === 3 && s; }, 'rollout complete');
  assert.equal(s3.updatedReplicas, 3);
  const revs = (await client.list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`)).items.map((r: any) => r.revision).sort();
  assert.deepEqual(revs, [1, 2]);
});

test('persistentVolumeClaimRetentionPolicy Delete/Delete: the set owns the claims of its replicas, a scaled-away pod owns its own', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startStatefulSetController(client, silentLogger);
  t.after(() => ctl.stop());
  const nodes = autoReady(client);
  t.after(() => nodes.stop());
  const set = await client.create(setsPath, { metadata: { name: 'db' }, spec: { replicas: 2, selector: { matchLabels: { app: 'db' } }, template, volumeClaimTemplates: [claimTemplate], persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } } });
  await eventually(async () => (await client.get(`${setsPath}/db`)).status?.readyReplicas === 2, 'two ready');
  const setRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true };
  for (const name of ['data-db-0', 'data-db-1']) assert.deepEqual((await client.get(`${claimsPath}/${name}`)).metadata.ownerReferences, [setRef], name);

  const db1 = await client.get(`${podsPath}/db-1`);
  await client.patch(`${setsPath}/db`, { spec: { replicas: 1 } });
  // before db-1 goes, its claim is handed to it, so the garbage collector takes the claim with the pod
  const refs = await eventually(async () => { const r = (await client.get(`${claimsPath}/data-db-1`)).metadata.ownerReferences; return r?.[0]?.kind === 'Pod' && r; }, 'claim owned by its pod');
  assert.deepEqual(refs, [{ apiVersion: 'v1', kind: 'Pod', name: 'db-1', uid: db1.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual((await client.get(`${claimsPath}/data-db-0`)).metadata.ownerReferences, [setRef]);
});

test('a StatefulSet made again over orphaned pods and revisions adopts both: the pods keep running at their revision', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const nodes = autoReady(client);
  t.after(() => nodes.stop());
  const spec = { replicas: 2, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } }, template };
  let ctl = startStatefulSetController(client, silentLogger);
  await client.create(setsPath, { metadata: { name: 'db' }, spec });
  const s1 = await eventually(async () => { const s = (await client.get(`${setsPath}/db`)).status; return s?.readyReplicas === 2 && s; }, 'two ready');
  ctl.stop();
  // what `delete --cascade=orphan` leaves once the garbage collector has done its part
  const revPath = `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
  for (const p of (await client.list(podsPath)).items) await client.patch(`${podsPath}/${p.metadata.name}`, { metadata: { ownerReferences: null } });
  for (const r of (await client.list(revPath)).items) await client.patch(`${revPath}/${r.metadata.name}`, { metadata: { ownerReferences: null } });
  await client.delete(`${setsPath}/db`);
  const before = (await client.list(podsPath)).items.map((p: any) => p.metadata.uid).sort();

  ctl = startStatefulSetController(client, silentLogger);
  t.after(() => ctl.stop());
  const again = await client.create(setsPath, { metadata: { name: 'db' }, spec });
  const s2 = await eventually(async () => { const s = (await client.get(`${setsPath}/db`)).status; return s?.readyReplicas === 2 && s; }, 'status of the new set');
  assert.equal(s2.currentRevision, s1.currentRevision, 'the orphaned revision is adopted, not made again');
  await eventually(async () => (await client.list(podsPath)).items.every((p: any) => p.metadata.ownerReferences?.[0]?.uid === again.metadata.uid), 'pods adopted');
  assert.deepEqual((await client.list(podsPath)).items.map((p: any) => p.metadata.uid).sort(), before, 'no pod replaced');
  const revs = (await client.list(revPath)).items;
  assert.equal(revs.length, 1);
  assert.equal(revs[0].metadata.ownerReferences[0].uid, again.metadata.uid);
});
