import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../support/fake-request.ts';

const cms = '/api/v1/namespaces/default/configmaps';

test('owner references and the garbage collector finalizers are checked as Kubernetes checks ObjectMeta', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const create = (name: string, metadata: Record<string, unknown>) => api.request('POST', cms, { body: { metadata: { name, ...metadata } } });

  let res = await create('a', { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] });
  assert.equal(res.status, 422);
  assert.equal(res.json().message, 'ConfigMap "a" is invalid: [metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty, metadata.ownerReferences.kind: Invalid value: "": must not be empty, metadata.ownerReferences.name: Invalid value: "": must not be empty, metadata.ownerReferences.uid: Invalid value: "": must not be empty]');

  res = await create('b', { ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' }] });
  assert.equal(res.status, 422);
  assert.match(res.json().message, /metadata\.ownerReferences: Invalid value: .*: \/v1, Kind=Event is disallowed from being an owner$/);

  res = await create('c', { ownerReferences: [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '1', controller: true },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'y', uid: '2', controller: true },
  ] });
  assert.equal(res.status, 422);
  assert.match(res.json().message, /Only one reference can have Controller set to true\. Found "true" in references for ConfigMap\/x and ReplicaSet\/y$/);

  res = await create('d', { finalizers: ['orphan', 'foregroundDeletion'] });
  assert.equal(res.status, 422);
  assert.match(res.json().message, /metadata\.finalizers: Invalid value: .*: finalizer orphan and foregroundDeletion cannot be both set$/);

  // well-formed references to an owner of any kind, even one this server does not serve
  res = await create('e', { ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '1', controller: true, blockOwnerDeletion: true }] });
  assert.equal(res.status, 201);
});
