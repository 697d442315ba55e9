import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../support/fake-request.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const opts = (o: Record<string, unknown>) => ({ body: { kind: 'DeleteOptions', apiVersion: 'v1', ...o } });

test('Orphan and Foreground deletes leave the object with the finalizer the garbage collector acts on', async t => {
  const api = await testApi();
  t.after(() => api.close());
  for (const n of ['o', 'f', 'b']) assert.equal((await api.request('POST', cms, { body: { metadata: { name: n, finalizers: ['example.com/x'] } } })).status, 201);

  const res = await api.request('DELETE', `${cms}/o`, opts({ propagationPolicy: 'Orphan' }));
  assert.equal(res.status, 200);
  // the object stays, and the answer is the object as it now is
  assert.equal(res.json().kind, 'ConfigMap');
  assert.deepEqual(res.json().metadata.finalizers, ['example.com/x', 'orphan']);
  let o = (await api.request('GET', `${cms}/o`)).json();
  assert.deepEqual(o.metadata.finalizers, ['example.com/x', 'orphan']);
  assert.ok(o.metadata.deletionTimestamp);
  assert.equal(o.metadata.deletionGracePeriodSeconds, 0);

  // held by finalizers alone, the object may switch to another policy, as in Kubernetes
  assert.equal((await api.request('DELETE', `${cms}/o?propagationPolicy=Foreground`)).status, 200);
  o = (await api.request('GET', `${cms}/o`)).json();
  assert.deepEqual(o.metadata.finalizers, ['example.com/x', 'foregroundDeletion']);

  await api.request('DELETE', `${cms}/f`, opts({ propagationPolicy: 'Foreground' }));
  assert.deepEqual((await api.request('GET', `${cms}/f`)).json().metadata.finalizers, ['example.com/x', 'foregroundDeletion']);

  // the deprecated boolean, in the body or the query; false (delete the dependents) kept is 202
  await api.request('DELETE', `${cms}/b?orphanDependents=true`);
  assert.deepEqual((await api.request('GET', `${cms}/b`)).json().metadata.finalizers, ['example.com/x', 'orphan']);
  const accepted = await api.request('DELETE', `${cms}/b`, opts({ orphanDependents: false }));
  assert.equal(accepted.status, 202);
  assert.deepEqual(accepted.json().metadata.finalizers, ['example.com/x']);
});

test('an object without other finalizers is kept by the orphan finalizer, and goes when a Background delete drops it', async t => {
  const api = await testApi();
  t.after(() => api.close());
  await api.request('POST', cms, { body: { metadata: { name: 'c' } } });
  await api.request('DELETE', `${cms}/c`, opts({ propagationPolicy: 'Orphan' }));
  assert.deepEqual((await api.request('GET', `${cms}/c`)).json().metadata.finalizers, ['orphan']);
  assert.equal((await api.request('DELETE', `${cms}/c`, opts({ propagationPolicy: 'Background' }))).status, 200);
  assert.equal((await api.request('GET', `${cms}/c`)).status, 404);

  // Background (kubectl's default) on a plain object removes it at once
  await api.request('POST', cms, { body: { metadata: { name: 'd' } } });
  await api.request('DELETE', `${cms}/d`, opts({ propagationPolicy: 'Background' }));
  assert.equal((await api.request('GET', `${cms}/d`)).status, 404);
});

test('the resource default: a batch/v1 Job deleted without a policy orphans its pods, with the warning', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const job = { metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
  assert.equal((await api.request('POST', jobs, { body: job })).status, 201);
  const res = await api.request('DELETE', `${jobs}/j`);
  assert.equal(res.status, 200);
  assert.match(String(res.headers['warning']), /child pods are preserved by default when jobs are deleted/);
  assert.deepEqual((await api.request('GET', `${jobs}/j`)).json().metadata.finalizers, ['orphan']);
  // a collection too; with a policy named, no warning
  assert.equal((await api.request('POST', jobs, { body: { ...job, metadata: { name: 'k' } } })).status, 201);
  const coll = await api.request('DELETE', jobs);
  assert.match(String(coll.headers['warning']), /child pods are preserved by default/);
  const named = await api.request('DELETE', `${jobs}?propagationPolicy=Background`);
  assert.equal(named.headers['warning'], undefined);
});

test('an invalid propagationPolicy, or both forms at once, is 422 in Kubernetes words', async t => {
  const api = await testApi();
  t.after(() => api.close());
  await api.request('POST', cms, { body: { metadata: { name: 'x' } } });
  let res = await api.request('DELETE', `${cms}/x`, opts({ propagationPolicy: 'Sideways' }));
  assert.equal(res.status, 422);
  assert.equal(res.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  assert.equal(res.json().reason, 'Invalid');
  res = await api.request('DELETE', `${cms}/x?propagationPolicy=Sideways`);
  assert.equal(res.status, 422);
  res = await api.request('DELETE', `${cms}/x`, opts({ propagationPolicy: 'Orphan', orphanDependents: true }));
  assert.equal(res.status, 422);
  assert.equal(res.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
  // nothing was deleted by the refused requests
  assert.equal((await api.request('GET', `${cms}/x`)).status, 200);
  // checked before the object is looked up
  assert.equal((await api.request('DELETE', `${cms}/absent`, opts({ propagationPolicy: 'Sideways' }))).status, 422);
});
