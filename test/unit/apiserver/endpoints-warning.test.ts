import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../support/fake-request.ts';

test('core/v1 Endpoints answer with the deprecation warning of Kubernetes 1.33+, EndpointSlices without', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const warning = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
  const created = await api.request('POST', '/api/v1/namespaces/default/endpoints', { body: { metadata: { name: 'e' } } });
  assert.equal(created.status, 201);
  assert.deepEqual(created.headers.warning, [warning]);
  assert.deepEqual((await api.request('GET', '/api/v1/namespaces/default/endpoints')).headers.warning, [warning]);
  assert.deepEqual((await api.request('GET', '/api/v1/namespaces/default/endpoints/missing')).headers.warning, [warning], 'errors too');
  assert.equal((await api.request('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices')).headers.warning, undefined);
});
