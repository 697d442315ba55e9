// NamespaceLifecycle through the handlers: creates need an existing namespace (404 naming it)
// that is not terminating (403 with the NamespaceTerminating cause), before the object is
// validated; default, kube-system and kube-public cannot be deleted; the rest passes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';

let api: TestApi;
before(async () => {
  api = await testApi({ admission: ['NamespaceLifecycle'] });
  for (const name of ['default', 'kube-system', 'kube-public', 'closing']) {
    assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
  }
  // a configmap that stays while its namespace is deleted
  assert.equal((await api.request('POST', '/api/v1/namespaces/closing/configmaps', { body: { metadata: { name: 'stays' } } })).status, 201);
  assert.equal((await api.request('DELETE', '/api/v1/namespaces/closing')).status, 200);
});
after(() => api.close());

test('a create in a namespace that does not exist is 404 NotFound naming the namespace, checked before validation', async () => {
  for (const name of ['x', 'Not_Valid']) {
    const r = await api.request('POST', '/api/v1/namespaces/ghost/configmaps', { body: { metadata: { name } } });
    assert.equal(r.status, 404);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'namespaces "ghost" not found', reason: 'NotFound', details: { name: 'ghost', kind: 'namespaces' }, code: 404 });
  }
  // dry runs are refused alike
  assert.equal((await api.request('POST', '/api/v1/namespaces/ghost/configmaps?dryRun=All', { body: { metadata: { name: 'x' } } })).status, 404);
});

test('a create in a terminating namespace is 403 with the NamespaceTerminating cause; by generateName before a name is drawn', async () => {
  const r = await api.request('POST', '/apis/apps/v1/namespaces/closing/deployments', { body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } });
  assert.equal(r.status, 403);
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
    message: 'deployments.apps "d" is forbidden: unable to create new content in namespace closing because it is being terminated',
    details: { name: 'd', group: 'apps', kind: 'deployments', causes: [{ reason: 'NamespaceTerminating', message: 'namespace closing is being terminated', field: 'metadata.namespace' }] },
  });
  const g = await api.request('POST', '/api/v1/namespaces/closing/configmaps', { body: { metadata: { generateName: 'g-' } } });
  assert.equal(g.json().message, 'configmaps "g-" is forbidden: unable to create new content in namespace closing because it is being terminated');
});

test('in a terminating namespace objects may still be updated and deleted', async () => {
  const cur = (await api.request('GET', '/api/v1/namespaces/closing/configmaps/stays')).json();
  assert.equal((await api.request('PUT', '/api/v1/namespaces/closing/configmaps/stays', { body: { ...cur, data: { a: 'b' } } })).status, 200);
  assert.equal((await api.request('DELETE', '/api/v1/namespaces/closing/configmaps/stays')).status, 200);
});

test('default, kube-system and kube-public may not be deleted (dry run neither); another namespace may', async () => {
  for (const name of ['default', 'kube-system', 'kube-public']) {
    for (const q of ['', '?dryRun=All']) {
      const r = await api.request('DELETE', `/api/v1/namespaces/${name}${q}`);
      assert.equal(r.status, 403);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, reason: 'Forbidden', details: { name, kind: 'namespaces' }, code: 403 });
    }
    assert.equal((await api.request('GET', `/api/v1/namespaces/${name}`)).json().status.phase, 'Active');
  }
  assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'mortal' } } })).status, 201);
  assert.equal((await api.request('DELETE', '/api/v1/namespaces/mortal')).status, 200);
});

test('cluster-scoped objects need no namespace', async () => {
  assert.equal((await api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: { metadata: { name: 'r' }, rules: [] } })).status, 201);
});
