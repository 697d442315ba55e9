// PersistentVolumes, claims and StorageClasses through the generic store: Kubernetes' defaults,
// the Pending status a new one starts with, the protection finalizers, the default class given
// to claims that name none (DefaultStorageClass admission) and the `standard` class the API
// server makes at start.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ensureDefaultStorageClass } from '../../../../src/apiserver/bootstrap.ts';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => {
  reg = await testRegistry({
    namespaceState: async () => 'active',
    async listOther(group, resource) { return (await reg.store.list(reg.info(group, resource), undefined)).items; },
  });
});
after(() => reg.close());

const claim = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });

test('a claim starts Pending with the pvc-protection finalizer; without classes it gets none', async () => {
  const c = await reg.store.create(reg.info('', 'persistentvolumeclaims'), 'default', claim('before-any-class') as never) as any;
  assert.deepEqual(c.status, { phase: 'Pending' });
  assert.deepEqual(c.metadata.finalizers, ['kubernetes.io/pvc-protection']);
  assert.equal(c.spec.volumeMode, 'Filesystem');
  assert.equal(c.spec.storageClassName, undefined);
});

test('the API server makes the default class `standard` once; claims naming no class get it', async () => {
  await ensureDefaultStorageClass(reg.store, reg.catalog);
  await ensureDefaultStorageClass(reg.store, reg.catalog);
  const sc = await reg.store.get(reg.info('storage.k8s.io', 'storageclasses'), undefined, 'standard') as any;
  assert.equal(sc.provisioner, 'orch.io/local-path');
  assert.equal(sc.volumeBindingMode, 'WaitForFirstConsumer');
  assert.equal(sc.reclaimPolicy, 'Delete');
  assert.equal(sc.metadata.annotations['storageclass.kubernetes.io/is-default-class'], 'true');

  const pvcs = reg.info('', 'persistentvolumeclaims');
  assert.equal((await reg.store.create(pvcs, 'default', claim('no-class') as never) as any).spec.storageClassName, 'standard');
  // "" asks for no class and is kept; a named class is kept
  assert.equal((await reg.store.create(pvcs, 'default', claim('empty', { storageClassName: '' }) as never) as any).spec.storageClassName, '');
  assert.equal((await reg.store.create(pvcs, 'default', claim('named', { storageClassName: 'fast' }) as never) as any).spec.storageClassName, 'fast');
});

test('a volume starts Pending with the pv-protection finalizer and Retain by default; a class defaults to Delete and Immediate', async () => {
  const v = await reg.store.create(reg.info('', 'persistentvolumes'), undefined, { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } } as never) as any;
  assert.deepEqual(v.status, { phase: 'Pending' });
  assert.deepEqual(v.metadata.finalizers, ['kubernetes.io/pv-protection']);
  assert.equal(v.spec.persistentVolumeReclaimPolicy, 'Retain');
  assert.equal(v.spec.volumeMode, 'Filesystem');
  const sc = await reg.store.create(reg.info('storage.k8s.io', 'storageclasses'), undefined, { metadata: { name: 'plain' }, provisioner: 'example.com/x' } as never) as any;
  assert.equal(sc.reclaimPolicy, 'Delete');
  assert.equal(sc.volumeBindingMode, 'Immediate');
});
