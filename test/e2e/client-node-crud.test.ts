// @kubernetes/client-node against a real `orch server`: CRUD on core and grouped types,
// the status and scale subresources, and Status errors as the library surfaces them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startOrch, type OrchProcess } from './support/orch-process.ts';

let orch: OrchProcess;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let coord: k8s.CoordinationV1Api;
const ns = 'client-node';

before(async () => {
  // read-modify-write of pods below: no scheduler may write them meanwhile
  orch = await startOrch({ args: ['--disable-scheduler'] });
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(orch.kubeconfig);
  core = kc.makeApiClient(k8s.CoreV1Api);
  apps = kc.makeApiClient(k8s.AppsV1Api);
  coord = kc.makeApiClient(k8s.CoordinationV1Api);
  await core.createNamespace({ body: { metadata: { name: ns } } });
});
after(async () => { await orch.stop(); await orch.cleanup(); });

function statusCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

test('configmap create, read, list, replace, delete', async () => {
  const created = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'c1', labels: { a: 'b' } }, data: { k: 'v' } } });
  assert.equal(created.metadata?.namespace, ns);
  assert.ok(created.metadata?.uid);
  assert.match(created.metadata?.resourceVersion ?? '', /^\d+$/);
  const read = await core.readNamespacedConfigMap({ name: 'c1', namespace: ns });
  assert.deepEqual(read.data, { k: 'v' });
  read.data = { k: 'w' };
  const replaced = await core.replaceNamespacedConfigMap({ name: 'c1', namespace: ns, body: read });
  assert.ok(Number(replaced.metadata!.resourceVersion) > Number(created.metadata!.resourceVersion));
  // by label: the namespace also holds kube-root-ca.crt, which the root CA publisher puts in every namespace
  const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'a=b' });
  assert.deepEqual(list.items.map(i => i.metadata?.name), ['c1']);
  assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);
  await core.deleteNamespacedConfigMap({ name: 'c1', namespace: ns });
  await assert.rejects(core.readNamespacedConfigMap({ name: 'c1', namespace: ns }), (e: unknown) => statusCode(e) === 404);
});

test('stale update is a 409 and a duplicate create is a 409', async () => {
  const c = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'c2' } } });
  await core.replaceNamespacedConfigMap({ name: 'c2', namespace: ns, body: { ...c, data: { x: '1' } } });
  await assert.rejects(core.replaceNamespacedConfigMap({ name: 'c2', namespace: ns, body: { ...c, data: { x: '2' } } }), (e: unknown) => statusCode(e) === 409);
  await assert.rejects(core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'c2' } } }), (e: unknown) => statusCode(e) === 409);
});

test('pod status subresource: main writes ignore status, status writes ignore spec', async () => {
  const pod = await core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(pod.status?.phase, 'Pending');
  pod.status = { ...pod.status, phase: 'Running', podIP: '10.0.0.9' };
  pod.metadata!.labels = { via: 'status' };
  const afterStatus = await core.replaceNamespacedPodStatus({ name: 'p1', namespace: ns, body: pod });
  assert.equal(afterStatus.status?.phase, 'Running');
  assert.equal(afterStatus.metadata?.labels?.via, undefined, 'status write ignores metadata');
  afterStatus.status = { ...afterStatus.status, phase: 'Failed' };
  afterStatus.metadata!.labels = { via: 'main' };
  const afterMain = await core.replaceNamespacedPod({ name: 'p1', namespace: ns, body: afterStatus });
  assert.equal(afterMain.status?.phase, 'Running', 'main write ignores status');
  assert.equal(afterMain.metadata?.labels?.via, 'main');
});

test('deployment scale subresource and generation', async () => {
  const d = await apps.createNamespacedDeployment({ namespace: ns, body: {
    metadata: { name: 'd1' },
    spec: { selector: { matchLabels: { app: 'd1' } }, template: { metadata: { labels: { app: 'd1' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  } });
  assert.equal(d.spec?.replicas, 1);
  assert.equal(d.metadata?.generation, 1);
  // the deployment controller writes the Deployment too (status, revision): read, change and
  // write again on a conflict, as client-go's RetryOnConflict does
  let scaled;
  for (let attempt = 0; !scaled; attempt++) {
    const scale = await apps.readNamespacedDeploymentScale({ name: 'd1', namespace: ns });
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.spec?.replicas, 1);
    assert.equal(scale.status?.selector, 'app=d1');
    scale.spec = { replicas: 4 };
    scaled = await apps.replaceNamespacedDeploymentScale({ name: 'd1', namespace: ns, body: scale }).catch(err => { if (attempt < 5 && (err as { code?: number }).code === 409) return undefined; throw err; });
  }
  assert.equal(scaled.spec?.replicas, 4);
  const after2 = await apps.readNamespacedDeployment({ name: 'd1', namespace: ns });
  assert.equal(after2.spec?.replicas, 4);
  assert.equal(after2.metadata?.generation, 2);
});

test('grouped type CRUD: leases', async () => {
  await coord.createNamespacedLease({ namespace: ns, body: { metadata: { name: 'l1' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 10 } } });
  const l = await coord.readNamespacedLease({ name: 'l1', namespace: ns });
  assert.equal(l.spec?.holderIdentity, 'a');
  const all = await coord.listLeaseForAllNamespaces();
  assert.ok(all.items.some(i => i.metadata?.name === 'l1'));
  await coord.deleteNamespacedLease({ name: 'l1', namespace: ns });
});

test('generateName gets a unique suffix', async () => {
  const a = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { generateName: 'gen-' } } });
  const b = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { generateName: 'gen-' } } });
  assert.match(a.metadata!.name!, /^gen-[a-z0-9]{5}$/);
  assert.notEqual(a.metadata!.name, b.metadata!.name);
});
