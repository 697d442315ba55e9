// DefaultStorageClass and StorageObjectInUseProtection through the handlers: claims naming no
// class get the default one (an empty name and a named class are kept), and new volumes and
// claims carry their protection finalizer; with the plugins off, neither happens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';

let api: TestApi;
let bare: TestApi;
before(async () => {
  api = await testApi({ admission: ['DefaultStorageClass', 'StorageObjectInUseProtection'] });
  bare = await testApi({ admission: [] });
  for (const a of [api, bare]) {
    assert.equal((await a.request('POST', '/apis/storage.k8s.io/v1/storageclasses', { body: { metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'orch.io/local-path' } })).status, 201);
  }
});
after(async () => { await api.close(); await bare.close(); });

const claim = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });
const create = async (a: TestApi, body: unknown) => {
  const r = await a.request('POST', '/api/v1/namespaces/default/persistentvolumeclaims', { body });
  assert.equal(r.status, 201, r.text());
  return r.json();
};

test('a claim naming no class gets the default one and the pvc-protection finalizer; "" and a named class are kept', async () => {
  const c = await create(api, claim('no-class'));
  assert.equal(c.spec.storageClassName, 'standard');
  assert.deepEqual(c.metadata.finalizers, ['kubernetes.io/pvc-protection']);
  assert.equal((await create(api, claim('empty', { storageClassName: '' }))).spec.storageClassName, '');
  assert.equal((await create(api, claim('named', { storageClassName: 'fast' }))).spec.storageClassName, 'fast');
  const beta = await create(api, { ...claim('beta'), metadata: { name: 'beta', annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } } });
  assert.equal(beta.spec.storageClassName, undefined);
});

test('a volume gets the pv-protection finalizer, once', async () => {
  const r = await api.request('POST', '/api/v1/persistentvolumes', { body: { metadata: { name: 'pv1', finalizers: ['kubernetes.io/pv-protection'] }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } } });
  assert.equal(r.status, 201, r.text());
  assert.deepEqual(r.json().metadata.finalizers, ['kubernetes.io/pv-protection']);
});

test('with the plugins off, a claim keeps what it was given', async () => {
  const c = await create(bare, claim('plain'));
  assert.equal(c.spec.storageClassName, undefined);
  assert.equal(c.metadata.finalizers, undefined);
});
