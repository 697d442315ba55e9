// Custom resources' representations through the router, with the CRD controller: Tables from
// additionalPrinterColumns (get, list, watch; includeObject; every accepted spelling), field
// selectors on selectableFields, defaults of a changed schema on objects already stored, and
// protobuf not offered (406, fallback, 415) while metadata views and CBOR (gate on) are.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encode as cborEncode, decode as cborDecode } from 'cbor-x';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { until as waitFor } from '../../../e2e/support/until.ts';
import { startCrdController } from '../../../../src/apiserver/crd/controller.ts';
import type { ExtensibleCatalog } from '../../../../src/schema/extensible-catalog.ts';
import { silentLogger } from '../../../../src/api/log.ts';
import { apiServerFeatureGates, featureGates } from '../../../../src/api/feature-gates.ts';
import { decodeProtobufObject, encodeProtobufObject } from '../../../../src/codec/protobuf/envelope.ts';
import { decodeProtobufWatchEvent } from '../../../../src/codec/protobuf/watch.ts';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const base = '/apis/example.com/v1/namespaces/default/widgets';
const table = 'application/json;as=Table;g=meta.k8s.io;v=v1';
const pb = 'application/vnd.kubernetes.protobuf';

// polled often: in process, a CRD is served within milliseconds
const until = <T>(what: string, fn: () => Promise<T | undefined | false>) => waitFor(what, fn, 5000, 20);

const spec = (extra: Record<string, unknown> = {}) => ({ type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' }, ...extra } });
const widgetCrd = (specSchema = spec()) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema, status: { type: 'object', properties: { phase: { type: 'string' } } } } } },
      subresources: { status: {} },
      additionalPrinterColumns: [
        { name: 'Color', type: 'string', jsonPath: '.spec.color' },
        { name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
    }],
  },
});

async function served(t: { after(fn: () => unknown): void }, crd: unknown = widgetCrd(), cbor = false): Promise<TestApi> {
  const api = await testApi(cbor ? { features: featureGates({ CBORServingAndStorage: true }, apiServerFeatureGates) } : {});
  const controller = startCrdController({ registry: api.deps.registry, catalog: api.deps.catalog as ExtensibleCatalog, log: silentLogger });
  t.after(async () => { controller.stop(); await api.close(); });
  await controller.synced;
  assert.equal((await api.request('POST', crds, { body: crd })).status, 201);
  await until('served', async () => (await api.request('GET', base)).status === 200);
  return api;
}

const widget = (name: string, s: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: s });

test('Tables from additionalPrinterColumns on get and list, every spelling, includeObject', async t => {
  const api = await served(t);
  await api.request('POST', base, { body: widget('a', { color: 'blue', size: 3 }) });
  await api.request('POST', base, { body: widget('b', { size: 5 }) });

  const list = await api.request('GET', base, { headers: { accept: table } });
  assert.equal(list.status, 200, list.text());
  assert.equal(list.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
  const body = list.json();
  assert.deepEqual(body.columnDefinitions.map((c: { name: string; priority: number }) => [c.name, c.priority]), [['Name', 0], ['Color', 0], ['Size', 1], ['Phase', 0], ['Age', 0]]);
  assert.deepEqual(body.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 4)), [['a', 'blue', 3, null], ['b', null, 5, null]]);
  assert.match(body.rows[0].cells[4], /^\d+(s|m|h|d|y)/);
  assert.equal(body.rows[0].object.kind, 'PartialObjectMetadata');
  assert.ok(body.metadata.resourceVersion);

  for (const [accept, apiVersion] of [['application/json;as=Table;g=meta.k8s.io;v=v1beta1', 'meta.k8s.io/v1beta1'], ['application/json;as=Table;g=meta.orch.io;v=v1', 'meta.orch.io/v1']]) {
    const one = await api.request('GET', `${base}/a`, { headers: { accept } });
    assert.equal(one.json().apiVersion, apiVersion);
    assert.deepEqual(one.json().rows[0].cells.slice(0, 2), ['a', 'blue']);
  }
  const whole = (await api.request('GET', `${base}/a?includeObject=Object`, { headers: { accept: table } })).json();
  assert.deepEqual([whole.rows[0].object.kind, whole.rows[0].object.spec], ['Widget', { color: 'blue', size: 3 }]);
  const none = (await api.request('GET', `${base}?includeObject=None`, { headers: { accept: table } })).json();
  assert.equal(none.rows[0].object, null, 'an empty RawExtension, as Go writes it');
  const yaml = await api.request('GET', `${base}/a`, { headers: { accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1' } });
  assert.match(yaml.text(), /kind: Table/);
});

test('a CRD without printer columns serves Name and Age', async t => {
  const crd = widgetCrd();
  delete (crd.spec.versions[0] as { additionalPrinterColumns?: unknown }).additionalPrinterColumns;
  const api = await served(t, crd);
  await api.request('POST', base, { body: widget('a', {}) });
  const got = (await api.request('GET', `${base}/a`, { headers: { accept: table } })).json();
  assert.deepEqual(got.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type]), [['Name', 'string'], ['Age', 'date']]);
  assert.equal(got.rows[0].cells[0], 'a');
});

test('a Table watch: columns with the first event, then rows only; field selectors on selectable fields', async t => {
  const api = await served(t);
  await api.request('POST', base, { body: widget('a', { color: 'blue', size: 3 }) });
  const ac = new AbortController();
  const watching = api.request('GET', `${base}?watch=1&fieldSelector=spec.color%3Dred`, { headers: { accept: table }, signal: ac.signal });
  await api.request('POST', base, { body: widget('b', { color: 'red', size: 1 }) });
  await api.request('POST', base, { body: widget('c', { color: 'green' }) });
  await api.request('PATCH', `${base}/b`, { body: { spec: { size: 2 } }, headers: { 'content-type': 'application/merge-patch+json' } });
  await new Promise(r => setTimeout(r, 200));
  ac.abort();
  const events = (await watching).text().trim().split('\n').map(l => JSON.parse(l));
  assert.deepEqual(events.map(e => [e.type, e.object.kind, e.object.rows[0].cells.slice(0, 3)]), [['ADDED', 'Table', ['b', 'red', 1]], ['MODIFIED', 'Table', ['b', 'red', 2]]]);
  assert.equal(events[0].object.columnDefinitions.length, 5);
  assert.deepEqual(events[1].object.columnDefinitions, []);

  const names = async (q: string) => (await api.request('GET', `${base}?fieldSelector=${encodeURIComponent(q)}`)).json().items?.map((o: { metadata: { name: string } }) => o.metadata.name);
  assert.deepEqual(await names('spec.color=blue'), ['a']);
  assert.deepEqual(await names('spec.size=2'), ['b']);
  assert.deepEqual(await names('spec.color!=red,metadata.namespace=default'), ['a', 'c']);
  const refused = await api.request('GET', `${base}?fieldSelector=status.phase%3DReady`);
  assert.deepEqual([refused.status, refused.json().reason, refused.json().message], [400, 'BadRequest', 'field label not supported: status.phase']);
});

test('a default added to the schema shows on objects already stored, without rewriting them', async t => {
  const api = await served(t);
  const created = (await api.request('POST', base, { body: widget('a', { color: 'blue' }) })).json();
  const stored = async () => JSON.parse(Buffer.from((await api.storage.get('/registry/widgets.example.com/default/a')).kv!.value).toString()).spec;
  assert.deepEqual(await stored(), { color: 'blue' });

  const crd = (await api.request('GET', `${crds}/widgets.example.com`)).json();
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec = spec({ size: { type: 'integer', default: 7 } });
  assert.equal((await api.request('PUT', `${crds}/widgets.example.com`, { body: crd })).status, 200);
  const got = await until('the default on read', async () => {
    const r = (await api.request('GET', `${base}/a`)).json();
    return r.spec.size === 7 ? r : undefined;
  });
  assert.equal(got.metadata.resourceVersion, created.metadata.resourceVersion, 'nothing was written');
  assert.deepEqual(await stored(), { color: 'blue' });
  assert.deepEqual((await api.request('GET', base)).json().items[0].spec, { color: 'blue', size: 7 }, 'lists (the JSON fast path) too');
  assert.deepEqual((await api.request('GET', `${base}?fieldSelector=spec.size%3D7`)).json().items.length, 1, 'selectors see the default');
  // the old object of an update is the defaulted one: a status write keeps the default in place
  const status = await api.request('PATCH', `${base}/a/status`, { body: { status: { phase: 'Ready' } }, headers: { 'content-type': 'application/merge-patch+json' } });
  assert.deepEqual(status.json().spec, { color: 'blue', size: 7 });

  const ac = new AbortController();
  const watching = api.request('GET', `${base}?watch=1`, { signal: ac.signal });
  await new Promise(r => setTimeout(r, 100));
  ac.abort();
  assert.deepEqual(JSON.parse((await watching).text().split('\n')[0]!).object.spec, { color: 'blue', size: 7 });
});

test('protobuf is not offered for custom resources: 406, fallback to JSON, 415 for bodies; metadata views in protobuf are', async t => {
  const api = await served(t);
  await api.request('POST', base, { body: widget('a', { color: 'blue' }) });
  const only = await api.request('GET', `${base}/a`, { headers: { accept: pb } });
  assert.equal(only.status, 406);
  assert.equal(only.headers['content-type'], pb, 'the Status itself has a protobuf form');
  assert.equal(decodeProtobufObject(only.body).object.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  const fallback = await api.request('GET', `${base}/a`, { headers: { accept: `${pb},application/json` } });
  assert.deepEqual([fallback.status, fallback.headers['content-type'], fallback.json().spec.color], [200, 'application/json', 'blue']);
  const listFallback = await api.request('GET', base, { headers: { accept: `${pb}, application/json` } });
  assert.equal(listFallback.json().kind, 'WidgetList');
  const watchOnly = await api.request('GET', `${base}?watch=1`, { headers: { accept: `${pb};stream=watch` } });
  assert.equal(watchOnly.status, 406);

  const body = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  const refused = await api.request('POST', base, { body, headers: { 'content-type': pb } });
  assert.deepEqual([refused.status, refused.json().reason, refused.json().message],
    [415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml']);

  const meta = await api.request('GET', `${base}/a`, { headers: { accept: `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1` } });
  assert.equal(meta.status, 200, meta.text());
  const decoded = decodeProtobufObject(meta.body).object as { kind: string; metadata: { name: string } };
  assert.deepEqual([decoded.kind, decoded.metadata.name], ['PartialObjectMetadata', 'a']);
  assert.equal((await api.request('GET', `${base}/a`, { headers: { accept: `${pb};as=Table;g=meta.k8s.io;v=v1` } })).status, 406);

  // a metadata-only watch in protobuf, as metadata informers ask: its bookmarks are metadata too
  const ac = new AbortController();
  const watching = api.request('GET', `${base}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    { headers: { accept: `${pb};as=PartialObjectMetadata;g=meta.k8s.io;v=v1;stream=watch` }, signal: ac.signal });
  await new Promise(r => setTimeout(r, 150));
  ac.abort();
  const frames = (await watching).body;
  const events: string[] = [];
  for (let at = 0; at < frames.length;) {
    const ev = decodeProtobufWatchEvent(frames.subarray(at));
    events.push(`${ev.type} ${ev.object.kind} ${(ev.object.metadata as { name?: string }).name ?? ''}`);
    at += ev.length;
  }
  assert.deepEqual(events, ['ADDED PartialObjectMetadata a', 'BOOKMARK PartialObjectMetadata ']);
});

test('CBOR for custom resources when the gate is on; Tables stay JSON or YAML', async t => {
  const api = await served(t, widgetCrd(), true);
  const created = await api.request('POST', base, { body: cborEncode(widget('a', { color: 'blue', size: 2 })), headers: { 'content-type': 'application/cbor', accept: 'application/cbor' } });
  assert.equal(created.status, 201, created.text());
  assert.equal(created.headers['content-type'], 'application/cbor');
  assert.deepEqual((cborDecode(created.body) as { spec: unknown }).spec, { color: 'blue', size: 2 });
  const list = await api.request('GET', base, { headers: { accept: 'application/cbor' } });
  assert.equal((cborDecode(list.body) as { kind: string }).kind, 'WidgetList');
  const cborTable = await api.request('GET', `${base}/a`, { headers: { accept: 'application/cbor;as=Table;g=meta.k8s.io;v=v1' } });
  assert.equal(cborTable.status, 406);
  const refused = await api.request('POST', base, { body: encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }), headers: { 'content-type': pb } });
  assert.equal(refused.json().message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/cbor');
});
