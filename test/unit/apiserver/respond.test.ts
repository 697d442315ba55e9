// Negotiation and encoding, request in and bytes out: JSON, YAML, Table and metadata-only views
// (in the spelling the client asked for), 406, gzip past the threshold, HEAD, warnings, and
// errors as Status.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { testApi, type TestApi } from '../support/fake-request.ts';

let api: TestApi;
const cms = '/api/v1/namespaces/default/configmaps';
before(async () => {
  api = await testApi();
  await api.request('POST', cms, { body: { metadata: { name: 'r', labels: { a: 'b' } }, data: { k: 'v' } } });
});
after(() => api.close());

test('JSON by default; YAML when asked', async () => {
  const json = await api.request('GET', `${cms}/r`);
  assert.equal(json.headers['content-type'], 'application/json');
  assert.equal(json.headers['cache-control'], 'no-cache, private');
  assert.equal(json.json().metadata.name, 'r');
  const yaml = await api.request('GET', `${cms}/r`, { headers: { accept: 'application/yaml' } });
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.match(yaml.text(), /^apiVersion: v1\n/m);
  assert.match(yaml.text(), /^  name: r$/m);
});

test('a Table and a metadata-only view, answered in the group spelling asked for', async () => {
  const table = await api.request('GET', cms, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  assert.equal(table.status, 200, table.text());
  assert.equal(table.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
  assert.equal(table.json().kind, 'Table');
  assert.equal(table.json().apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(table.json().columnDefinitions.map((c: { name: string }) => c.name).slice(0, 2), ['Name', 'Data']);
  const spec = await api.request('GET', cms, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } });
  assert.equal(spec.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.orch.io');
  assert.equal(spec.json().apiVersion, 'meta.orch.io/v1');
  const meta = await api.request('GET', `${cms}/r`, { headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } });
  assert.equal(meta.json().kind, 'PartialObjectMetadata');
  assert.deepEqual(meta.json().metadata.labels, { a: 'b' });
  assert.equal(meta.json().data, undefined);
});

test('nothing acceptable is a 406 listing what is served; a write is refused before it writes', async () => {
  const r = await api.request('GET', `${cms}/r`, { headers: { accept: 'text/html' } });
  assert.equal(r.status, 406);
  assert.equal(r.json().reason, 'NotAcceptable');
  assert.match(r.json().message, /^only the following media types are accepted: application\/json, application\/yaml/);
  const w = await api.request('POST', cms, { body: { metadata: { name: 'never' } }, headers: { accept: 'text/html' } });
  assert.equal(w.status, 406);
  assert.equal((await api.request('GET', `${cms}/never`)).status, 404);
});

test('large answers are gzipped for clients that accept it; small ones never', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'big' }, data: { blob: 'x'.repeat(200 * 1024) } } });
  const big = await api.request('GET', `${cms}/big`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(big.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(gunzipSync(big.body).toString()).data.blob.length, 200 * 1024);
  const small = await api.request('GET', `${cms}/r`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(small.headers['content-encoding'], undefined);
});

test('HEAD answers the headers without the body; warnings go out in a Warning header', async () => {
  const head = await api.request('HEAD', `${cms}/r`);
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.ok(Number(head.headers['content-length']) > 0);
  const warned = await api.request('POST', `${cms}?fieldValidation=Warn`, { body: { metadata: { name: 'w' }, bogus: 1 } });
  assert.equal(warned.status, 201);
  assert.deepEqual(warned.headers.warning, ['299 - "unknown field \\"bogus\\""']);
});

test('errors are Status objects with the code as the HTTP status', async () => {
  const r = await api.request('GET', `${cms}/missing`);
  assert.equal(r.status, 404);
  assert.deepEqual([r.json().kind, r.json().code, r.json().reason], ['Status', 404, 'NotFound']);
  const yaml = await api.request('GET', `${cms}/missing`, { headers: { accept: 'application/yaml' } });
  assert.equal(yaml.headers['content-type'], 'application/yaml', 'in the representation asked for');
  assert.match(yaml.text(), /^kind: Status$/m);
  assert.match(yaml.text(), /^code: 404$/m);
  const table = await api.request('GET', `${cms}/missing`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  assert.equal(table.headers['content-type'], 'application/json', 'a Status is never a Table');
});
