// CBOR behind the CBORServingAndStorage gate: bodies in and out (self-described tag first, keys
// in bytewise order of their encoding, []byte fields as byte strings), watches as a CBOR
// sequence, server-side apply in CBOR; with the gate off CBOR is neither offered nor read.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decode, decodeMultiple, encode } from 'cbor-x';
import { testApi, type TestApi } from '../support/fake-request.ts';
import { apiServerFeatureGates, featureGates } from '../../../src/api/feature-gates.ts';
import { encodeCbor } from '../../../src/codec/cbor.ts';

const cbor = 'application/cbor';
const cms = '/api/v1/namespaces/default/configmaps';
let api: TestApi;
before(async () => { api = await testApi({ features: featureGates({ CBORServingAndStorage: true }, apiServerFeatureGates) }); });
after(() => api.close());

/** the keys of a CBOR map in the order they were written */
const keysOf = (bytes: Uint8Array) => Object.keys(decode(bytes) as object);

test('create from CBOR, answer in CBOR: the tag first, keys shortest first, the same values as JSON', async () => {
  const body = encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', labels: { b: '1', aa: '2' } }, data: { k: 'v' } });
  const r = await api.request('POST', cms, { body, headers: { 'content-type': cbor, accept: cbor } });
  assert.equal(r.status, 201, r.text());
  assert.equal(r.headers['content-type'], cbor);
  assert.deepEqual([...r.body.subarray(0, 3)], [0xd9, 0xd9, 0xf7], 'self-described CBOR');
  assert.deepEqual(keysOf(r.body), ['data', 'kind', 'metadata', 'apiVersion']);
  const json = (await api.request('GET', `${cms}/c1`)).json();
  assert.deepEqual(decode(r.body), json);
  const got = await api.request('GET', `${cms}/c1`, { headers: { accept: cbor } });
  assert.deepEqual(decode(got.body), json);
});

test('[]byte fields travel as byte strings both ways', async () => {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { key: Buffer.from('hello').toString('base64') } };
  const r = await api.request('POST', '/api/v1/namespaces/default/secrets', { body: encodeCbor(secret), headers: { 'content-type': cbor, accept: cbor } });
  assert.equal(r.status, 201, r.text());
  const out = decode(r.body) as { data: { key: Uint8Array } };
  assert.ok(out.data.key instanceof Uint8Array);
  assert.equal(Buffer.from(out.data.key).toString(), 'hello');
  assert.equal((await api.request('GET', '/api/v1/namespaces/default/secrets/s1')).json().data.key, Buffer.from('hello').toString('base64'));
});

test('Status errors in CBOR; a malformed body is a 400', async () => {
  const missing = await api.request('GET', `${cms}/nope`, { headers: { accept: cbor } });
  assert.equal(missing.status, 404);
  assert.equal((decode(missing.body) as { reason: string }).reason, 'NotFound');
  const bad = await api.request('POST', cms, { body: Buffer.from([0xd9, 0xd9, 0xf7, 0xbf]), headers: { 'content-type': cbor } });
  assert.equal(bad.status, 400);
  assert.match(bad.json().message, /^unable to decode CBOR: /);
});

test('server-side apply in CBOR; the JSON-only patch types have no CBOR form', async () => {
  const config = encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a: '1' } });
  const r = await api.request('PATCH', `${cms}/applied?fieldManager=me`, { body: config, headers: { 'content-type': 'application/apply-patch+cbor' } });
  assert.equal(r.status, 201, r.text());
  assert.equal(r.json().metadata.managedFields[0].operation, 'Apply');
  const merge = await api.request('PATCH', `${cms}/applied`, { body: encode({ data: { b: '2' } }), headers: { 'content-type': 'application/merge-patch+cbor' } });
  assert.equal(merge.status, 415);
  assert.match(merge.json().message, /application\/apply-patch\+cbor/);
});

test('watch: a CBOR sequence, one event per item', async () => {
  const ac = new AbortController();
  const start = (await api.request('GET', cms)).json().metadata.resourceVersion;
  const watching = api.request('GET', `${cms}?watch=1&resourceVersion=${start}`, { headers: { accept: cbor }, signal: ac.signal });
  await api.request('POST', cms, { body: { metadata: { name: 'w1' } } });
  await api.request('DELETE', `${cms}/w1`);
  await new Promise(r => setTimeout(r, 200));
  ac.abort();
  const r = await watching;
  assert.equal(r.headers['content-type'], 'application/cbor-seq');
  const events = decodeMultiple(r.body) as Array<{ type: string; object: { metadata: { name: string } } }>;
  assert.deepEqual(events.map(e => [e.type, e.object.metadata.name]), [['ADDED', 'w1'], ['DELETED', 'w1']]);
});

test('with the gate off CBOR is not offered (406) nor read (415)', async () => {
  const off = await testApi();
  try {
    const accept = await off.request('GET', cms, { headers: { accept: cbor } });
    assert.equal(accept.status, 406);
    assert.equal(accept.json().message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const body = await off.request('POST', cms, { body: encodeCbor({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }), headers: { 'content-type': cbor } });
    assert.equal(body.status, 415);
    const apply = await off.request('PATCH', `${cms}/x?fieldManager=me`, { body: encode({}), headers: { 'content-type': 'application/apply-patch+cbor' } });
    assert.equal(apply.status, 415);
  } finally {
    await off.close();
  }
});
