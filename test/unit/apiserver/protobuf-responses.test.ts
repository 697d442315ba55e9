// Protobuf answers (`application/vnd.kubernetes.protobuf`, and the spec's
// `application/vnd.orch.protobuf` answered in that spelling) for every verb, Status errors,
// metadata-only views and watch frames; negotiation falls back where there is no protobuf form.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../support/fake-request.ts';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/codec/protobuf/envelope.ts';
import { decodeProtobufWatchEvent } from '../../../src/codec/protobuf/watch.ts';

const pb = 'application/vnd.kubernetes.protobuf';
const orchPb = 'application/vnd.orch.protobuf';
let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const decoded = (body: Buffer) => decodeProtobufObject(body).object as Record<string, any>;
const cms = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string) {
  return { metadata: { name, labels: { app: name } }, spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } };
}

test('create, get, update, patch, list and delete answer in protobuf; the bytes decode to the JSON answer', async () => {
  // (a named field manager: protobuf cannot tell an empty one from none)
  const created = await api.request('POST', cms, { body: { metadata: { name: 'p1' }, data: { k: 'v' } }, headers: { accept: pb, 'user-agent': 'writer/v1' } });
  assert.equal(created.status, 201);
  assert.equal(created.headers['content-type'], pb);
  assert.deepEqual([...created.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00], 'the k8s\\0 magic');
  const obj = decoded(created.body);
  assert.deepEqual([obj.kind, obj.apiVersion, obj.metadata.name, obj.data], ['ConfigMap', 'v1', 'p1', { k: 'v' }]);

  const got = await api.request('GET', `${cms}/p1`, { headers: { accept: pb } });
  const asJson = (await api.request('GET', `${cms}/p1`)).json();
  assert.deepEqual(decoded(got.body), asJson);

  const updated = await api.request('PUT', `${cms}/p1`, { body: { ...asJson, data: { k: 'w' } }, headers: { accept: pb } });
  assert.equal(updated.status, 200);
  assert.deepEqual(decoded(updated.body).data, { k: 'w' });
  const patched = await api.request('PATCH', `${cms}/p1`, { body: { data: { j: 'x' } }, headers: { accept: pb, 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual(decoded(patched.body).data, { k: 'w', j: 'x' });

  const list = await api.request('GET', cms, { headers: { accept: pb } });
  const l = decoded(list.body);
  assert.equal(l.kind, 'ConfigMapList');
  assert.deepEqual(l.items.map((i: any) => i.metadata.name), ['p1']);

  const deleted = await api.request('DELETE', `${cms}/p1`, { headers: { accept: pb } });
  assert.equal(deleted.status, 200);
  assert.equal(decoded(deleted.body).kind, 'Status');
});

test('grouped and cluster-scoped kinds, and the spec\'s spelling answered in kind', async () => {
  const d = await api.request('POST', deployments, { body: deployment('web'), headers: { accept: orchPb } });
  assert.equal(d.status, 201);
  assert.equal(d.headers['content-type'], orchPb);
  const dep = decoded(d.body);
  assert.deepEqual([dep.kind, dep.apiVersion, dep.spec.replicas, dep.spec.template.spec.containers[0].image], ['Deployment', 'apps/v1', 2, 'busybox']);
  const node = await api.request('POST', '/api/v1/nodes', { body: { metadata: { name: 'n1' } }, headers: { accept: pb } });
  assert.deepEqual([node.status, decoded(node.body).kind, decoded(node.body).metadata.name], [201, 'Node', 'n1']);
  const scale = await api.request('GET', `${deployments}/web/scale`, { headers: { accept: pb } });
  assert.deepEqual([decoded(scale.body).kind, decoded(scale.body).spec.replicas], ['Scale', 2]);
});

test('Status errors in protobuf; a Table has none, so a Table-or-JSON client gets JSON', async () => {
  const missing = await api.request('GET', `${cms}/nope`, { headers: { accept: pb } });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['content-type'], pb);
  const st = decoded(missing.body);
  assert.deepEqual([st.kind, st.reason, st.code, st.message], ['Status', 'NotFound', 404, 'configmaps "nope" not found']);
  const table = await api.request('GET', cms, { headers: { accept: `${pb};as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io` } });
  assert.equal(table.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
  const onlyPbTable = await api.request('GET', cms, { headers: { accept: `${pb};as=Table;v=v1;g=meta.k8s.io` } });
  assert.equal(onlyPbTable.status, 406);
});

test('metadata-only views in protobuf', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'm1', labels: { a: 'b' } }, data: { big: 'x'.repeat(100) } } });
  const one = await api.request('GET', `${cms}/m1`, { headers: { accept: `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1` } });
  assert.equal(one.headers['content-type'], `${pb};as=PartialObjectMetadata;v=v1;g=meta.k8s.io`);
  const pom = decoded(one.body);
  assert.deepEqual([pom.kind, pom.apiVersion, pom.metadata.labels, pom.data], ['PartialObjectMetadata', 'meta.k8s.io/v1', { a: 'b' }, undefined]);
  const list = await api.request('GET', cms, { headers: { accept: `${pb};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` } });
  const pl = decoded(list.body);
  assert.equal(pl.kind, 'PartialObjectMetadataList');
  assert.ok(pl.items.some((i: any) => i.metadata.name === 'm1'));
});

test('negotiation: q-values order the choice; a wildcard means JSON; the 406 lists protobuf for built-in kinds', async () => {
  const pref = await api.request('GET', cms, { headers: { accept: `application/json;q=0.5, ${pb}` } });
  assert.equal(pref.headers['content-type'], pb);
  const json = await api.request('GET', cms, { headers: { accept: `${pb};q=0.1, application/json` } });
  assert.equal(json.headers['content-type'], 'application/json');
  assert.equal((await api.request('GET', cms, { headers: { accept: '*/*' } })).headers['content-type'], 'application/json');
  const refused = await api.request('GET', cms, { headers: { accept: 'text/html' } });
  assert.equal(refused.status, 406);
  assert.equal(refused.json().message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
});

test('protobuf request bodies: create from protobuf, answer in protobuf', async () => {
  const body = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frompb' }, data: { a: '1' } });
  const r = await api.request('POST', cms, { body, headers: { 'content-type': pb, accept: pb } });
  assert.equal(r.status, 201, r.text());
  assert.deepEqual(decoded(r.body).data, { a: '1' });
});

test('watch: length-prefixed WatchEvent frames whose object is the full envelope', async () => {
  const ac = new AbortController();
  const start = (await api.request('GET', cms)).json().metadata.resourceVersion;
  const watching = api.request('GET', `${cms}?watch=1&resourceVersion=${start}`, { headers: { accept: `${pb};stream=watch` }, signal: ac.signal });
  await api.request('POST', cms, { body: { metadata: { name: 'w1' } } });
  await api.request('DELETE', `${cms}/w1`);
  await new Promise(r => setTimeout(r, 200));
  ac.abort();
  const r = await watching;
  assert.equal(r.headers['content-type'], `${pb};stream=watch`);
  const events: Array<[string, string]> = [];
  for (let at = 0; at < r.body.length;) {
    const ev = decodeProtobufWatchEvent(r.body.subarray(at));
    events.push([ev.type, String((ev.object.metadata as { name: string }).name)]);
    at += ev.length;
  }
  assert.deepEqual(events, [['ADDED', 'w1'], ['DELETED', 'w1']]);
});

test('DeleteOptions bodies in protobuf', async () => {
  await api.request('POST', cms, { body: { metadata: { name: 'd1' } } });
  const opts = encodeProtobufObject({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } });
  const refused = await api.request('DELETE', `${cms}/d1`, { body: opts, headers: { 'content-type': pb } });
  assert.equal(refused.status, 409, refused.text());
  assert.match(refused.json().message, /the UID in the precondition \(not-the-uid\) does not match/);
  const ok = await api.request('DELETE', `${cms}/d1`, { body: encodeProtobufObject({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 }), headers: { 'content-type': pb } });
  assert.equal(ok.status, 200, ok.text());
});
