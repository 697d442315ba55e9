// ResourceQuota through the handlers: a create past a quota is Kubernetes' 403, an admitted one
// is charged to status.used at once (so concurrent creates cannot overrun the quota), dry runs
// are checked and not charged, and compute quotas need containers to state what they limit.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';

let api: TestApi;
before(async () => {
  api = await testApi({ admission: ['NamespaceLifecycle', 'LimitRanger', 'ResourceQuota'] });
  for (const name of ['a', 'b', 'c']) assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
});
after(() => api.close());

/** a quota whose status the controller has counted (no controller runs here) */
async function quota(ns: string, hard: Record<string, string>, used: Record<string, string>) {
  const q = (await api.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { body: { metadata: { name: 'q' }, spec: { hard } } })).json();
  assert.equal((await api.request('PUT', `/api/v1/namespaces/${ns}/resourcequotas/q/status`, { body: { ...q, status: { hard, used } } })).status, 200);
}
const usedOf = async (ns: string) => (await api.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/q`)).json().status.used;
const pod = (name: string, resources: unknown = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', resources }] } });

test('creates are charged until the quota is used up, then refused with Kubernetes\' message', async () => {
  await quota('a', { pods: '2', 'requests.cpu': '1', configmaps: '5' }, { pods: '0', 'requests.cpu': '0', configmaps: '0' });
  assert.equal((await api.request('POST', '/api/v1/namespaces/a/pods?dryRun=All', { body: pod('dry', { requests: { cpu: '100m' } }) })).status, 201);
  assert.deepEqual(await usedOf('a'), { configmaps: '0', pods: '0', 'requests.cpu': '0' }, 'a dry run is not charged');
  assert.equal((await api.request('POST', '/api/v1/namespaces/a/pods', { body: pod('p1', { requests: { cpu: '250m' } }) })).status, 201);
  assert.equal((await api.request('POST', '/api/v1/namespaces/a/pods', { body: pod('p2', { requests: { cpu: '250m' } }) })).status, 201);
  assert.deepEqual(await usedOf('a'), { configmaps: '0', pods: '2', 'requests.cpu': '500m' });
  const r = await api.request('POST', '/api/v1/namespaces/a/pods', { body: pod('p3', { requests: { cpu: '250m' } }) });
  assert.equal(r.status, 403);
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
    message: 'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    details: { name: 'p3', kind: 'pods' },
  });
  const over = await api.request('POST', '/api/v1/namespaces/a/pods?dryRun=All', { body: pod('p4') });
  assert.equal(over.status, 403, 'a dry run is refused alike');
  // other kinds are counted by their own names
  assert.equal((await api.request('POST', '/api/v1/namespaces/a/configmaps', { body: { metadata: { name: 'cm' } } })).status, 201);
  assert.equal((await usedOf('a')).configmaps, '1');
});

test('a compute quota refuses containers that do not state what it limits', async () => {
  await quota('b', { 'limits.cpu': '2', 'limits.memory': '1Gi' }, { 'limits.cpu': '0', 'limits.memory': '0' });
  const r = await api.request('POST', '/api/v1/namespaces/b/pods', { body: pod('p', { limits: { cpu: '1' } }) });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "p" is forbidden: failed quota: q: must specify limits.memory for: c');
  // a LimitRange's defaults come first, so the same pod passes once one gives memory limits
  assert.equal((await api.request('POST', '/api/v1/namespaces/b/limitranges', { body: { metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { memory: '128Mi' } }] } } })).status, 201);
  assert.equal((await api.request('POST', '/api/v1/namespaces/b/pods', { body: pod('p', { limits: { cpu: '1' } }) })).status, 201);
  assert.deepEqual(await usedOf('b'), { 'limits.cpu': '1', 'limits.memory': '128Mi' });
});

test('concurrent creates never take a quota past its limit', async () => {
  await quota('c', { pods: '5' }, { pods: '0' });
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => api.request('POST', '/api/v1/namespaces/c/pods', { body: pod(`p${i}`) })));
  assert.deepEqual(results.map(r => r.status).sort(), [...Array(5).fill(201), ...Array(7).fill(403)]);
  assert.deepEqual(await usedOf('c'), { pods: '5' });
});

test('a resize is charged what it adds, and refused past the quota', async () => {
  assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'r' } } })).status, 201);
  await quota('r', { 'requests.cpu': '1', 'limits.cpu': '2' }, { 'requests.cpu': '0', 'limits.cpu': '0' });
  assert.equal((await api.request('POST', '/api/v1/namespaces/r/pods', { body: pod('p', { requests: { cpu: '500m' }, limits: { cpu: '500m' } }) })).status, 201);
  const resize = (cpu: string) => api.request('PATCH', '/api/v1/namespaces/r/pods/p/resize', {
    body: { spec: { containers: [{ name: 'c', resources: { requests: { cpu }, limits: { cpu } } }] } },
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
  });
  assert.equal((await resize('800m')).status, 200);
  assert.deepEqual(await usedOf('r'), { 'limits.cpu': '800m', 'requests.cpu': '800m' });
  const r = await resize('1500m');
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "p" is forbidden: exceeded quota: q, requested: requests.cpu=700m, used: requests.cpu=800m, limited: requests.cpu=1');
});
