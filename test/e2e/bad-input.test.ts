// Bad requests get a clear Status with the right code, nothing is written, and the server keeps serving.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
const cms = '/api/v1/namespaces/default/configmaps';

before(async () => { orch = await startOrch(); c = rawClient(orch.kubeconfig); });
after(async () => { await orch.stop(); await orch.cleanup(); });

async function expectStatus(method: string, path: string, code: number, reason: string, opts?: Parameters<RawClient['request']>[2]) {
  const r = await c.request(method, path, opts);
  assert.equal(r.status, code, `${method} ${path}: ${r.body}`);
  const s = r.json();
  assert.equal(s.kind, 'Status');
  assert.equal(s.status, 'Failure');
  assert.equal(s.code, code);
  assert.equal(s.reason, reason);
  return s;
}

/** the configmaps this test could have written (kube-root-ca.crt is the root CA publisher's, made when it gets to it) */
async function configMapCount(): Promise<number> {
  return (await c.request('GET', cms)).json().items.filter((i: { metadata: { name: string } }) => i.metadata.name !== 'kube-root-ca.crt').length;
}

test('malformed JSON and YAML are 400 and write nothing', async () => {
  const before = await configMapCount();
  await expectStatus('POST', cms, 400, 'BadRequest', { body: '{"metadata": {"name": "x"' });
  await expectStatus('POST', cms, 400, 'BadRequest', { body: 'metadata: [unclosed', headers: { 'content-type': 'application/yaml' } });
  await expectStatus('POST', cms, 400, 'BadRequest', { body: '[1,2]' });
  assert.equal(await configMapCount(), before);
});

test('kind or apiVersion not matching the path is 400', async () => {
  await expectStatus('POST', cms, 400, 'BadRequest', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k' } }) });
  await expectStatus('POST', cms, 400, 'BadRequest', { body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'k' } }) });
});

test('unknown resource or group is 404', async () => {
  const s = await expectStatus('GET', '/api/v1/nothings', 404, 'NotFound');
  assert.equal(s.message, 'the server could not find the requested resource');
  await expectStatus('GET', '/apis/nope.example.com/v1/things', 404, 'NotFound');
  await expectStatus('GET', '/apis/apps/v1beta9/deployments', 404, 'NotFound');
});

test('body over 3 MiB is 413', async () => {
  await expectStatus('POST', cms, 413, 'RequestEntityTooLarge', { body: JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024 + 10) } }) });
});

test('unsupported media types: 415 for bodies, 406 for responses', async () => {
  await expectStatus('POST', cms, 415, 'UnsupportedMediaType', { body: 'x', headers: { 'content-type': 'text/plain' } });
  await expectStatus('GET', cms, 406, 'NotAcceptable', { headers: { accept: 'image/png' } });
  // a Table is served for objects but not for the scale subresource
  const deploy = { metadata: { name: 'tbl' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
  assert.equal((await c.request('POST', '/apis/apps/v1/namespaces/default/deployments', { body: JSON.stringify(deploy) })).status, 201);
  const tableOnly = 'application/json;as=Table;g=meta.k8s.io;v=v1';
  await expectStatus('GET', '/apis/apps/v1/namespaces/default/deployments/tbl/scale', 406, 'NotAcceptable', { headers: { accept: tableOnly } });
  const fallback = await c.request('GET', '/apis/apps/v1/namespaces/default/deployments/tbl/scale', { headers: { accept: `${tableOnly},application/json` } });
  assert.equal(fallback.status, 200);
  assert.equal(fallback.json().kind, 'Scale');
});

test('invalid names are 422 Invalid with the field cause', async () => {
  const s = await expectStatus('POST', cms, 422, 'Invalid', { body: JSON.stringify({ metadata: { name: 'Not_Valid' } }) });
  assert.equal(s.details.causes[0].field, 'metadata.name');
  assert.match(s.message, /^ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain/);
  await expectStatus('POST', '/api/v1/namespaces', 422, 'Invalid', { body: JSON.stringify({ metadata: { name: 'has.dot' } }) });
});

test('method not allowed on a subresource is 405', async () => {
  await c.request('POST', cms, { body: JSON.stringify({ metadata: { name: 'm405' } }) });
  await expectStatus('POST', `${cms}/m405`, 405, 'MethodNotAllowed', { body: '{}' });
});

test('namespace in the body must match the path; missing namespaces are 404', async () => {
  await expectStatus('POST', cms, 400, 'BadRequest', { body: JSON.stringify({ metadata: { name: 'x', namespace: 'kube-system' } }) });
  const s = await expectStatus('POST', '/api/v1/namespaces/ghost/configmaps', 404, 'NotFound', { body: JSON.stringify({ metadata: { name: 'x' } }) });
  assert.equal(s.message, 'namespaces "ghost" not found');
});

test('requests without a client certificate run as system:anonymous: 403 with RBAC; health and version are public', async () => {
  const s = await expectStatus('GET', cms, 403, 'Forbidden', { anonymous: true });
  assert.equal(s.message, 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"');
  assert.equal((await c.request('GET', '/readyz', { anonymous: true })).status, 200);
  assert.equal((await c.request('GET', '/version', { anonymous: true })).json().major, '1');
});

test('the server still serves after all of that', async () => {
  const r = await c.request('POST', cms, { body: JSON.stringify({ metadata: { name: 'still-fine' } }) });
  assert.equal(r.status, 201);
});
