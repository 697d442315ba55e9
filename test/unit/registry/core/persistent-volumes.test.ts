// PersistentVolumes, claims and StorageClasses through the generic store: Kubernetes' defaults,
// the Pending status a new one starts with, and the `standard` class the API server makes at
// start. (The protection finalizers and the default class are admission plugins': see
// test/unit/apiserver/admission/plugins/storage-plugins.test.ts.)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ensureDefaultStorageClass } from '../../../../src/apiserver/bootstrap.ts';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => {
  reg = await testRegistry({
    async listOther(group, resource) { return (await reg.store.list(reg.info(group, resource), undefined)).items; },
  });
});
after(() => reg.close());

const claim = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });

test('a claim starts Pending; the store itself gives it no class', async () => {
  const c = await reg.store.create(reg.info('', 'persistentvolumeclaims'), 'default', claim('before-any-class') as never) as any;
  assert.deepEqual(c.status, { phase: 'Pending' });
  assert.equal(c.spec.volumeMode, 'Filesystem');
  assert.equal(c.spec.storageClassName, undefined);
});

test('the API server makes the default class `standard` once', async () => {
  await ensureDefaultStorageClass(reg.store, reg.catalog);
  await ensureDefaultStorageClass(reg.store, reg.catalog);
  const sc = await reg.store.get(reg.info('storage.k8s.io', 'storageclasses'), undefined, 'standard') as any;
  assert.equal(sc.provisioner, 'orch.io/local-path');
  assert.equal(sc.volumeBindingMode, 'WaitForFirstConsumer');
  assert.equal(sc.reclaimPolicy, 'Delete');
  assert.equal(sc.metadata.annotations['storageclass.kubernetes.io/is-default-class'], 'true');
});

test('a volume starts Pending with Retain by default; a class defaults to Delete and Immediate', async () => {
  const v = await reg.store.create(reg.info('', 'persistentvolumes'), undefined, { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } } as never) as any;
  assert.deepEqual(v.status, { phase: 'Pending', lastPhaseTransitionTime: '2026-01-02T03:04:05Z' });
  assert.equal(v.spec.persistentVolumeReclaimPolicy, 'Retain');
  assert.equal(v.spec.volumeMode, 'Filesystem');
  const sc = await reg.store.create(reg.info('storage.k8s.io', 'storageclasses'), undefined, { metadata: { name: 'plain' }, provisioner: 'example.com/x' } as never) as any;
  assert.equal(sc.reclaimPolicy, 'Delete');
  assert.equal(sc.volumeBindingMode, 'Immediate');
});

const invalidMessage = async (p: Promise<unknown>) => { try { await p; } catch (err) { return (err as Error).message; } return 'accepted'; };

test('claims and volumes are validated in Kubernetes\' words', async () => {
  const pvcs = reg.info('', 'persistentvolumeclaims'), pvs = reg.info('', 'persistentvolumes');
  assert.equal(await invalidMessage(reg.store.create(pvcs, 'default', { metadata: { name: 'bad' }, spec: { resources: { requests: { storage: '1Gi' } } } } as never)),
    'PersistentVolumeClaim "bad" is invalid: spec.accessModes: Required value: at least 1 access mode is required');
  assert.equal(await invalidMessage(reg.store.create(pvcs, 'default', { metadata: { name: 'bad' }, spec: { accessModes: ['ReadWriteOnce'] } } as never)),
    'PersistentVolumeClaim "bad" is invalid: spec.resources[storage]: Required value');
  assert.equal(await invalidMessage(reg.store.create(pvcs, 'default', { metadata: { name: 'bad' }, spec: { accessModes: ['Sometimes'], resources: { requests: { storage: '0' } } } } as never)),
    'PersistentVolumeClaim "bad" is invalid: [spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.resources[storage]: Invalid value: "0": must be greater than zero]');
  assert.equal(await invalidMessage(reg.store.create(pvs, undefined, { metadata: { name: 'bad' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } } as never)),
    'PersistentVolume "bad" is invalid: spec: Required value: must specify a volume type');
  assert.equal(await invalidMessage(reg.store.create(pvs, undefined, { metadata: { name: 'bad' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: 'rel' } } } as never)),
    'PersistentVolume "bad" is invalid: [spec.local.path: Invalid value: "rel": must be an absolute path, spec.nodeAffinity: Required value: Local volume requires node affinity]');
  assert.equal(await invalidMessage(reg.store.create(pvs, undefined, { metadata: { name: 'bad' }, spec: { accessModes: ['ReadWriteOnce'], hostPath: { path: '/a/../b' } } } as never)),
    'PersistentVolume "bad" is invalid: [spec.capacity: Required value, spec.hostPath.path: Invalid value: "/a/../b": must not contain \'..\']');
});

test('a claim\'s spec is fixed once made, except what the binder sets: volumeName once, a class where there was none', async () => {
  const pvcs = reg.info('', 'persistentvolumeclaims');
  const c = await reg.store.create(pvcs, 'default', claim('fixed', { storageClassName: '' }) as never) as any;
  const bound = (await reg.store.update(pvcs, 'default', 'fixed', { ...c, spec: { ...c.spec, volumeName: 'pv-x' } } as never)).object as any;
  assert.equal(bound.spec.volumeName, 'pv-x');
  assert.equal(await invalidMessage(reg.store.update(pvcs, 'default', 'fixed', { ...bound, spec: { ...bound.spec, volumeName: 'pv-y' } } as never)),
    'PersistentVolumeClaim "fixed" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  assert.match(await invalidMessage(reg.store.update(pvcs, 'default', 'fixed', { ...bound, spec: { ...bound.spec, accessModes: ['ReadWriteMany'] } } as never)), /spec is immutable after creation/);
  // made before any default class existed (the first test's claim): the binder may give it one
  const late = await reg.store.get(pvcs, 'default', 'before-any-class') as any;
  const given = (await reg.store.update(pvcs, 'default', 'before-any-class', { ...late, spec: { ...late.spec, storageClassName: 'standard' } } as never)).object as any;
  assert.equal(given.spec.storageClassName, 'standard');
  assert.match(await invalidMessage(reg.store.update(pvcs, 'default', 'before-any-class', { ...given, spec: { ...given.spec, storageClassName: 'fast' } } as never)), /spec is immutable after creation/);
});
