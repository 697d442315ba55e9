// Write options over raw HTTP: fieldValidation levels on every write verb, duplicate fields,
// dry run on every write verb (no write, no watch event), conditional patches, patch errors.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
const cms = '/api/v1/namespaces/default/configmaps';
const merge = { 'content-type': 'application/merge-patch+json' };
const strategic = { 'content-type': 'application/strategic-merge-patch+json' };

before(async () => { orch = await startOrch(); c = rawClient(orch.kubeconfig); });
after(async () => { await orch.stop(); await orch.cleanup(); });

function warnings(h: string | string[] | undefined): string[] {
  if (!h) return [];
  return (Array.isArray(h) ? h : h.split(/,(?=\s*299)/)).map(x => x.trim());
}

test('fieldValidation on POST, PUT and PATCH: Warn (default) warns and drops, Strict refuses, Ignore drops', async () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv","name":"fv"},"data":{"a":"1"},"extra":1}';
  const strict = await c.request('POST', `${cms}?fieldValidation=Strict`, { body });
  assert.equal(strict.status, 400);
  assert.equal(strict.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", unknown field "extra"');
  const warned = await c.request('POST', cms, { body });
  assert.equal(warned.status, 201, warned.body);
  assert.deepEqual(warnings(warned.headers.warning), ['299 - "duplicate field \\"metadata.name\\""', '299 - "unknown field \\"extra\\""']);
  assert.equal('extra' in warned.json(), false);

  const put = await c.request('PUT', `${cms}/fv?fieldValidation=Strict`, { body: '{"metadata":{"name":"fv"},"data":{"a":"2"},"spec":{}}' });
  assert.equal(put.status, 400);
  assert.match(put.json().message, /strict decoding error: unknown field "spec"/);
  const ignored = await c.request('PUT', `${cms}/fv?fieldValidation=Ignore`, { body: '{"metadata":{"name":"fv"},"data":{"a":"2"},"spec":{}}' });
  assert.equal(ignored.status, 200);
  assert.equal(ignored.headers.warning, undefined);

  const patch = await c.request('PATCH', `${cms}/fv?fieldValidation=Strict`, { body: '{"data":{"a":"3"},"nope":true}', headers: merge });
  assert.equal(patch.status, 400);
  assert.equal(patch.json().message, 'strict decoding error: unknown field "nope"');
  const patchWarn = await c.request('PATCH', `${cms}/fv`, { body: '{"data":{"a":"3"},"nope":true}', headers: strategic });
  assert.equal(patchWarn.status, 200);
  assert.deepEqual(warnings(patchWarn.headers.warning), ['299 - "unknown field \\"nope\\""']);
  assert.equal(patchWarn.json().data.a, '3');

  const bad = await c.request('POST', `${cms}?fieldValidation=Loud`, { body });
  assert.equal(bad.status, 422);
  assert.match(bad.json().message, /fieldValidation: Unsupported value: "Loud": supported values: "Ignore", "Strict", "Warn"/);
});

test('a type error is reported alone, even with unknown fields, at every level', async () => {
  for (const level of ['Ignore', 'Warn', 'Strict']) {
    const r = await c.request('POST', `/apis/apps/v1/namespaces/default/deployments?fieldValidation=${level}`, {
      body: JSON.stringify({ metadata: { name: 'typed' }, spec: { replicas: 'x', foo: 1, selector: { matchLabels: { a: 'b' } }, template: {} } }),
    });
    assert.equal(r.status, 400, level);
    assert.equal(r.json().message, 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  }
});

test('dryRun on POST, PUT, PATCH and DELETE: normal answer, nothing stored, no watch event', async () => {
  const created = await c.request('POST', cms, { body: '{"metadata":{"name":"dr"},"data":{"a":"1"}}' });
  const rv = created.json().metadata.resourceVersion;
  // only these two names: the root CA publisher may add kube-root-ca.crt to a new namespace meanwhile
  const w = await c.watch(`${cms}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%21%3Dkube-root-ca.crt`);
  const post = await c.request('POST', `${cms}?dryRun=All`, { body: '{"metadata":{"name":"dr2"}}' });
  assert.equal(post.status, 201);
  assert.equal(post.json().metadata.name, 'dr2');
  const put = await c.request('PUT', `${cms}/dr?dryRun=All`, { body: '{"metadata":{"name":"dr"},"data":{"a":"2"}}' });
  assert.equal(put.status, 200);
  assert.equal(put.json().data.a, '2');
  const patch = await c.request('PATCH', `${cms}/dr?dryRun`, { body: '{"data":{"a":"3"}}', headers: strategic });
  assert.equal(patch.status, 200);
  assert.equal(patch.json().data.a, '3');
  const del = await c.request('DELETE', `${cms}/dr?dryRun=All`);
  assert.equal(del.status, 200);
  const bad = await c.request('PATCH', `${cms}/dr?dryRun=Some`, { body: '{}', headers: merge });
  assert.equal(bad.status, 422);
  // a real write afterwards is the first event the watch sees
  await c.request('PATCH', `${cms}/dr`, { body: '{"data":{"a":"real"}}', headers: merge });
  await w.waitFor(1);
  await new Promise(r => setTimeout(r, 200));
  w.close();
  assert.deepEqual(w.events.map(e => [e.type, e.object.metadata.name, e.object.data?.a]), [['MODIFIED', 'dr', 'real']]);
  assert.equal((await c.request('GET', `${cms}/dr2`)).status, 404);
  assert.equal((await c.request('GET', `${cms}/dr`)).json().data.a, 'real');
});

test('a patch can be conditional on resourceVersion; force is only for apply', async () => {
  const cur = (await c.request('GET', `${cms}/dr`)).json();
  const stale = await c.request('PATCH', `${cms}/dr`, { body: JSON.stringify({ metadata: { resourceVersion: '1' }, data: { a: 'x' } }), headers: merge });
  assert.equal(stale.status, 409);
  assert.equal(stale.json().reason, 'Conflict');
  const fresh = await c.request('PATCH', `${cms}/dr`, { body: JSON.stringify({ metadata: { resourceVersion: cur.metadata.resourceVersion }, data: { a: 'y' } }), headers: merge });
  assert.equal(fresh.status, 200);
  const forced = await c.request('PATCH', `${cms}/dr?force=true`, { body: '{}', headers: merge });
  assert.equal(forced.status, 422);
  assert.match(forced.json().message, /force: Forbidden: may not be specified for non-apply patch/);
});

test('patch failures: 415 for other types, 400 for malformed, 422 for inapplicable', async () => {
  const t = await c.request('PATCH', `${cms}/dr`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(t.status, 415);
  const malformed = await c.request('PATCH', `${cms}/dr`, { body: '{"data":', headers: merge });
  assert.equal(malformed.status, 400);
  const notList = await c.request('PATCH', `${cms}/dr`, { body: '{"op":"add"}', headers: { 'content-type': 'application/json-patch+json' } });
  assert.equal(notList.status, 400);
  const missing = await c.request('PATCH', `${cms}/dr`, { body: '[{"op":"remove","path":"/data/zzz"}]', headers: { 'content-type': 'application/json-patch+json' } });
  assert.equal(missing.status, 422);
  assert.equal(missing.json().reason, 'Invalid');
  const retain = await c.request('PATCH', '/api/v1/namespaces/default/configmaps/dr', { body: '{"metadata":{"$deleteFromPrimitiveList/finalizers":"x"}}', headers: strategic });
  assert.equal(retain.status, 400);
  assert.equal(retain.json().message, 'invalid patch format of primitive list');
});
