// The storage controllers together against a real API server in this process (no node agents:
// nodes are objects, pods are bound but never run): the binder, the local-path provisioner, the
// protection controllers and the scheduler take a claim from Pending to Bound when a pod uses
// it, and its volume away again when the claim goes; static volumes bind to the smallest fit and
// a Retain volume stays Released.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer, type RunningServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../../src/client/rest.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { startScheduler } from '../../../../src/controllers/scheduler/scheduler.ts';
import { startLocalPathCleanup } from '../../../../src/agent/volumes/local-path-cleanup.ts';

let dir: string;
let server: RunningServer;
let client: Client;
const stops: Array<{ stop(): void }> = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-storage-flow-'));
  server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  client = createClient(await loadKubeconfig(server.kubeconfigPath));
  stops.push(startControllers({ client, enabled: ['serviceaccount-controller', 'persistentvolume-binder', 'local-path-provisioner', 'pvc-protection', 'pv-protection', 'ephemeral-volume'], log: silentLogger, settings: { localPathDir: join(dir, 'volumes') } }));
  // the node agents' part: the directories of deleted volumes go
  for (const n of ['n1', 'n2']) stops.push(startLocalPathCleanup(client, n, silentLogger));
  stops.push(startScheduler({ client, log: silentLogger, retryUnschedulableMs: 1000 }));
  for (const name of ['n1', 'n2']) {
    await client.create('/api/v1/nodes', { metadata: { name, labels: { 'kubernetes.io/hostname': name } } });
    const t = new Date().toISOString();
    await client.patch(`/api/v1/nodes/${name}/status`, { status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, capacity: { cpu: '4', memory: '8Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready', lastHeartbeatTime: t, lastTransitionTime: t }] } });
  }
});
after(async () => {
  for (const s of stops) s.stop();
  client.close();
  await server.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

/** the first truthy value cond gives, tried every 50 ms */
async function until<T>(cond: () => Promise<T>, ms: number, what: string): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond().catch(() => undefined);
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

const ns = '/api/v1/namespaces/default';
const get = (path: string) => client.get(path).catch(() => undefined);
const eventsFor = async (name: string) => (await client.list(`${ns}/events`, { fieldSelector: `involvedObject.name=${name}` })).items as any[];
const claimBody = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });
const podBody = (name: string, claim: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }], ...spec } });

test('a claim of the default class waits for its first consumer, then is provisioned on the pod\'s node and bound', async () => {
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('data'));
  const waiting = await until(async () => (await eventsFor('data')).find(e => e.reason === 'WaitForFirstConsumer'), 30_000, 'WaitForFirstConsumer event');
  assert.equal(waiting.message, 'waiting for first consumer to be created before binding');
  assert.equal(waiting.source.component, 'persistentvolume-controller');
  let pvc = await client.get(`${ns}/persistentvolumeclaims/data`);
  assert.equal(pvc.status.phase, 'Pending');
  assert.equal(pvc.spec.storageClassName, 'standard');

  await client.create(`${ns}/pods`, podBody('user', 'data', { nodeSelector: { 'kubernetes.io/hostname': 'n2' } }));
  const placed = await until(async () => (await client.get(`${ns}/pods/user`)).spec.nodeName, 30_000, 'pod bound');
  assert.equal(placed, 'n2');
  pvc = await client.get(`${ns}/persistentvolumeclaims/data`);
  // the pod is bound only once its claim is
  assert.equal(pvc.status.phase, 'Bound');
  assert.equal(pvc.metadata.annotations['volume.kubernetes.io/selected-node'], 'n2');
  assert.equal(pvc.metadata.annotations['pv.kubernetes.io/bind-completed'], 'yes');
  assert.equal(pvc.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.equal(pvc.metadata.annotations['volume.kubernetes.io/storage-provisioner'], 'orch.io/local-path');
  assert.equal(pvc.spec.volumeName, `pvc-${pvc.metadata.uid}`);
  assert.deepEqual(pvc.status.capacity, { storage: '1Gi' });
  assert.deepEqual(pvc.status.accessModes, ['ReadWriteOnce']);
  const pv = await client.get(`/api/v1/persistentvolumes/${pvc.spec.volumeName}`);
  assert.equal(pv.status.phase, 'Bound');
  assert.equal(pv.spec.claimRef.uid, pvc.metadata.uid);
  assert.deepEqual(pv.spec.hostPath, { path: join(dir, 'volumes', `${pv.metadata.name}_default_data`), type: 'DirectoryOrCreate' });
  // as the node agent makes it when it mounts the volume
  mkdirSync(pv.spec.hostPath.path, { recursive: true });
  writeFileSync(join(pv.spec.hostPath.path, 'data'), 'x');
  assert.deepEqual(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values, ['n2']);
  assert.equal(pv.spec.persistentVolumeReclaimPolicy, 'Delete');
  assert.deepEqual(pv.metadata.finalizers, ['external-provisioner.volume.kubernetes.io/finalizer', 'kubernetes.io/pv-protection']);
  const reasons = (await eventsFor('data')).map(e => e.reason);
  for (const r of ['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']) assert.ok(reasons.includes(r), `${r} in ${reasons}`);

  // a second pod with the same claim goes where the volume is
  await client.create(`${ns}/pods`, podBody('second', 'data'));
  assert.equal(await until(async () => (await client.get(`${ns}/pods/second`)).spec.nodeName, 30_000, 'second bound'), 'n2');

  // the claim stays while pods use it; then it goes, and its volume with it (Delete)
  await client.delete(`${ns}/persistentvolumeclaims/data`);
  await new Promise(r => setTimeout(r, 300));
  assert.ok((await client.get(`${ns}/persistentvolumeclaims/data`)).metadata.deletionTimestamp);
  for (const p of ['user', 'second']) await client.delete(`${ns}/pods/${p}`, { gracePeriodSeconds: 0 });
  await until(async () => !(await get(`${ns}/persistentvolumeclaims/data`)), 30_000, 'claim gone');
  await until(async () => !(await get(`/api/v1/persistentvolumes/${pv.metadata.name}`)), 30_000, 'volume gone');
  assert.equal(existsSync(pv.spec.hostPath.path), false, 'its directory removed by the node');
});

test('a pod whose bound volume lives on another node is told so, and placed where it lives', async () => {
  await client.create('/api/v1/persistentvolumes', { metadata: { name: 'on-n1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: '', hostPath: { path: '/srv/x' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }] } } } });
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('pinned', { storageClassName: '' }));
  await until(async () => (await client.get(`${ns}/persistentvolumeclaims/pinned`)).status.phase === 'Bound', 30_000, 'pinned bound');
  await client.create(`${ns}/pods`, podBody('wrong-node', 'pinned', { nodeSelector: { 'kubernetes.io/hostname': 'n2' } }));
  const failed = await until(async () => (await eventsFor('wrong-node')).find(e => e.reason === 'FailedScheduling'), 30_000, 'FailedScheduling');
  assert.equal(failed.message, "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had volume node affinity conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  await client.create(`${ns}/pods`, podBody('right-node', 'pinned'));
  assert.equal(await until(async () => (await client.get(`${ns}/pods/right-node`)).spec.nodeName, 30_000, 'bound'), 'n1');
});

test('static volumes: the smallest that fits is bound; a claim of an immediate class that nothing serves keeps its pod waiting; Retain leaves the volume Released', async () => {
  const vol = (name: string, size: string) => ({ metadata: { name, labels: { kind: 'static' } }, spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], storageClassName: 'manual', hostPath: { path: `/srv/${name}` } } });
  for (const [n, s] of [['big', '10Gi'], ['medium', '3Gi'], ['tiny', '500Mi']]) await client.create('/api/v1/persistentvolumes', vol(n!, s!));
  await until(async () => (await client.get('/api/v1/persistentvolumes/tiny')).status.phase === 'Available', 30_000, 'Available');
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('static', { storageClassName: 'manual', resources: { requests: { storage: '2Gi' } } }));
  const bound = await until(async () => { const c = await client.get(`${ns}/persistentvolumeclaims/static`); return c.status.phase === 'Bound' && c; }, 30_000, 'static bound');
  assert.equal(bound.spec.volumeName, 'medium');
  assert.deepEqual(bound.status.capacity, { storage: '3Gi' });
  const medium = await until(async () => { const v = await client.get('/api/v1/persistentvolumes/medium'); return v.status.phase === 'Bound' && v; }, 30_000, 'medium Bound');
  assert.equal(medium.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.equal(medium.spec.claimRef.name, 'static');

  // a class no provisioner serves and no volume fits: the pod says why it waits
  await client.create('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'nothing' }, provisioner: 'example.com/absent' });
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('orphan', { storageClassName: 'nothing' }));
  await client.create(`${ns}/pods`, podBody('stuck', 'orphan'));
  const failed = await until(async () => (await eventsFor('stuck')).find(e => e.reason === 'FailedScheduling'), 30_000, 'FailedScheduling');
  assert.equal(failed.message, '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.');

  await client.delete(`${ns}/persistentvolumeclaims/static`);
  await until(async () => !(await get(`${ns}/persistentvolumeclaims/static`)), 30_000, 'claim gone');
  const released = await until(async () => { const v = await client.get('/api/v1/persistentvolumes/medium'); return v.status.phase === 'Released' && v; }, 30_000, 'Released');
  assert.equal(released.spec.claimRef.name, 'static');
  assert.ok(released.status.lastPhaseTransitionTime);
  // a Released volume is not offered to new claims
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('again', { storageClassName: 'manual', resources: { requests: { storage: '2Gi' } } }));
  assert.equal(await until(async () => (await client.get(`${ns}/persistentvolumeclaims/again`)).spec.volumeName, 30_000, 'again bound'), 'big');
  assert.equal((await client.get('/api/v1/persistentvolumes/medium')).status.phase, 'Released');
});

test('a claim the provisioner cannot serve on the node: ProvisioningFailed, the node taken off the claim, the pod told and tried again', async () => {
  await client.create(`${ns}/persistentvolumeclaims`, claimBody('shared', { accessModes: ['ReadWriteMany'] }));
  await client.create(`${ns}/pods`, podBody('sharer', 'shared'));
  const failed = await until(async () => (await eventsFor('shared')).find(e => e.reason === 'ProvisioningFailed'), 30_000, 'ProvisioningFailed');
  assert.equal(failed.type, 'Warning');
  assert.equal(failed.message, 'failed to provision volume with StorageClass "standard": Only support ReadWriteOnce, ReadWriteOncePod access modes');
  const told = await until(async () => (await eventsFor('sharer')).find(e => e.reason === 'FailedScheduling'), 30_000, 'FailedScheduling');
  assert.equal(told.message, 'running PreBind plugin "VolumeBinding": binding volumes: provisioning failed for PVC "shared"');
  const pod = await client.get(`${ns}/pods/sharer`);
  assert.equal(pod.spec.nodeName, undefined);
  const pvc = await client.get(`${ns}/persistentvolumeclaims/shared`);
  assert.equal(pvc.status.phase, 'Pending');
});

test('a generic ephemeral volume: its claim made from the template, owned by the pod, provisioned where the pod goes', async () => {
  await client.create(`${ns}/pods`, {
    metadata: { name: 'scratchy' },
    spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { labels: { type: 'scratch' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '256Mi' } } } } } }] },
  });
  const node = await until(async () => (await client.get(`${ns}/pods/scratchy`)).spec.nodeName, 30_000, 'scratchy bound');
  const pod = await client.get(`${ns}/pods/scratchy`);
  const pvc = await client.get(`${ns}/persistentvolumeclaims/scratchy-scratch`);
  assert.equal(pvc.status.phase, 'Bound');
  assert.equal(pvc.metadata.labels.type, 'scratch');
  assert.equal(pvc.spec.storageClassName, 'standard');
  assert.deepEqual(pvc.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'scratchy', uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.equal(pvc.metadata.annotations['volume.kubernetes.io/selected-node'], node);
});
