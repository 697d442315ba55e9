// The served OpenAPI with custom resources and extension API servers' documents: what appears,
// what it looks like, and that documents and hashes follow their changes (and only those).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { extensibleCatalog } from '../../../src/schema/extensible-catalog.ts';
import { servedResources } from '../../../src/registry/apiextensions/served-resources.ts';
import type { Crd } from '../../../src/registry/apiextensions/crd-types.ts';
import { openapiHandler, type RemoteOpenAPI } from '../../../src/apiserver/openapi.ts';
import { encodeOpenAPIv2 } from '../../../src/apiserver/openapi-v2-proto.ts';

type Json = Record<string, any>;

function crd(description = 'How many widgets.', versions = ['v1', 'v1beta1']): Crd {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', description, nullable: true } } } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: versions.map((name, i) => ({ name, served: true, storage: i === 0, schema: { openAPIV3Schema: JSON.parse(JSON.stringify(schema)) }, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } })),
    },
    status: { acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }, conditions: [{ type: 'Established', status: 'True' }] },
  };
}

function setup(remote?: RemoteOpenAPI) {
  const catalog = extensibleCatalog(createCatalog());
  const h = openapiHandler(catalog, remote);
  const get = (path: string, headers: Record<string, string> = {}) => h(path, new URLSearchParams(), headers)!;
  return { catalog, get, json: (path: string) => JSON.parse(String(get(path).body)) as Json };
}

test('v2: a CRD version\'s paths and definitions beside the built-ins', () => {
  const { catalog, json } = setup();
  catalog.setCustomResources(servedResources(crd()));
  const doc = json('/openapi/v2');
  const item = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}'];
  assert.equal(item.get.operationId, 'readStableExampleComV1NamespacedWidget');
  assert.deepEqual(item.get.tags, ['stableExampleCom_v1']);
  assert.deepEqual(item.patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(item.get.produces, ['application/json', 'application/yaml']);
  assert.ok(item.patch.parameters.some((p: Json) => p.name === 'fieldValidation'));
  assert.equal(item.get.responses['200'].schema.$ref, '#/definitions/com.example.stable.v1.Widget');
  assert.equal(doc.paths['/apis/stable.example.com/v1/widgets'].get.operationId, 'listStableExampleComV1WidgetForAllNamespaces');
  assert.equal(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets'].get.responses['200'].schema.$ref, '#/definitions/com.example.stable.v1.WidgetList');
  // scale speaks autoscaling/v1 Scale but is labelled with the custom kind, as the CRD builder labels it
  const scale = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}/scale'].put;
  assert.equal(scale.parameters[0].schema.$ref, '#/definitions/io.k8s.api.autoscaling.v1.Scale');
  assert.deepEqual(scale['x-kubernetes-group-version-kind'], { group: 'stable.example.com', kind: 'Widget', version: 'v1' });
  assert.equal(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}/status'].get.operationId, 'readStableExampleComV1NamespacedWidgetStatus');
  for (const v of ['v1', 'v1beta1']) {
    const w = doc.definitions[`com.example.stable.${v}.Widget`];
    assert.deepEqual(w['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'Widget', version: v }]);
    assert.deepEqual(w.properties.spec.properties.replicas, { description: 'How many widgets.' });
  }
  assert.ok(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
  assert.ok(doc.definitions['io.k8s.api.core.v1.Pod'], 'built-ins stay');
  // the protobuf form kubectl 1.27 reads takes the custom definitions too
  assert.ok(encodeOpenAPIv2(doc).length > 0);
});

test('a cluster-scoped CRD has no namespaced paths; a version without a schema is an open object', () => {
  const { catalog, json } = setup();
  const c = crd();
  c.spec.scope = 'Cluster';
  delete c.spec.versions[1]!.schema;
  catalog.setCustomResources(servedResources(c));
  const doc = json('/openapi/v2');
  const paths = Object.keys(doc.paths).filter(p => p.includes('stable.example.com/v1/'));
  assert.deepEqual(paths.sort(), ['/apis/stable.example.com/v1/widgets', '/apis/stable.example.com/v1/widgets/{name}', '/apis/stable.example.com/v1/widgets/{name}/scale', '/apis/stable.example.com/v1/widgets/{name}/status']);
  assert.equal(doc.paths['/apis/stable.example.com/v1/widgets/{name}'].delete.operationId, 'deleteStableExampleComV1Widget');
  assert.deepEqual(doc.definitions['com.example.stable.v1beta1.Widget'], { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'Widget', version: 'v1beta1' }] });
});

test('v3: the index lists each served version; its document holds the kinds and what they refer to', () => {
  const { catalog, get, json } = setup();
  catalog.setCustomResources(servedResources(crd()));
  const index = json('/openapi/v3');
  assert.match(index.paths['apis/stable.example.com/v1'].serverRelativeURL, /^\/openapi\/v3\/apis\/stable.example.com\/v1\?hash=[0-9A-F]{128}$/);
  assert.ok(index.paths['apis/stable.example.com/v1beta1']);
  assert.ok(index.paths['apis/apps/v1']);
  const doc = json('/openapi/v3/apis/stable.example.com/v1');
  const schemas = doc.components.schemas;
  assert.deepEqual(Object.keys(schemas).filter(k => k.startsWith('com.')), ['com.example.stable.v1.Widget', 'com.example.stable.v1.WidgetList']);
  assert.deepEqual(schemas['com.example.stable.v1.Widget'].properties.spec.properties.replicas, { type: 'integer', description: 'How many widgets.', nullable: true });
  for (const needed of ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', 'io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch']) assert.ok(schemas[needed], needed);
  const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
  assert.deepEqual(Object.keys(patch.requestBody.content), ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  assert.ok(patch.parameters.some((p: Json) => p.name === 'fieldValidation'));
  assert.equal(get('/openapi/v3/apis/stable.example.com/v2'), undefined);
});

test('documents and hashes move when a CRD changes, and only then', () => {
  const { catalog, get } = setup();
  catalog.setCustomResources(servedResources(crd()));
  const v2 = get('/openapi/v2').headers.ETag;
  get('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
  const apps = get('/openapi/v3/apis/apps/v1').headers.ETag;
  const v1 = get('/openapi/v3/apis/stable.example.com/v1').headers.ETag;
  // the same CRD read again (new objects, same content): nothing moves
  catalog.setCustomResources(servedResources(crd()));
  assert.equal(get('/openapi/v2').headers.ETag, v2);
  assert.equal(get('/openapi/v3/apis/stable.example.com/v1').headers.ETag, v1);
  // a description changes: the custom documents move, the others do not
  catalog.setCustomResources(servedResources(crd('Widgets wanted.')));
  assert.notEqual(get('/openapi/v2').headers.ETag, v2);
  const moved = get('/openapi/v3/apis/stable.example.com/v1');
  assert.notEqual(moved.headers.ETag, v1);
  assert.match(String(moved.body), /Widgets wanted\./);
  assert.equal(get('/openapi/v3/apis/apps/v1').headers.ETag, apps);
  // the protobuf form, made from entries kept from the last document, is what a fresh server makes
  const proto = { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' };
  const fresh = setup();
  fresh.catalog.setCustomResources(servedResources(crd('Widgets wanted.')));
  assert.ok(Buffer.compare(get('/openapi/v2', proto).body as Buffer, fresh.get('/openapi/v2', proto).body as Buffer) === 0);
  // a version no longer served leaves the index; the CRD gone, its group too
  catalog.setCustomResources(servedResources(crd('Widgets wanted.', ['v1'])));
  const index = JSON.parse(String(get('/openapi/v3').body));
  assert.ok(index.paths['apis/stable.example.com/v1'] && !index.paths['apis/stable.example.com/v1beta1']);
  catalog.setCustomResources([]);
  assert.equal(get('/openapi/v3/apis/stable.example.com/v1'), undefined);
  assert.ok(!Object.keys(JSON.parse(String(get('/openapi/v2').body)).paths).some(p => p.includes('stable.example.com')));
  assert.equal(get('/openapi/v2').headers.ETag, (() => { const fresh = setup(); return fresh.get('/openapi/v2').headers.ETag; })());
});

test('extension API servers\' documents are merged in; their group-version documents served as they are', () => {
  let gen = 1;
  const flunder = { type: 'object', properties: { spec: { type: 'string' } } };
  const remoteV2: Json = {
    swagger: '2.0',
    paths: { '/apis/wardle.example.com/v1alpha1/flunders': { get: { operationId: 'listFlunder', responses: { 200: { schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } } } }, '/version': { get: { operationId: 'theirVersion' } } },
    // the same name as a built-in with other content: renamed, with the extension's references
    definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', description: 'theirs' }, 'com.example.wardle.v1alpha1.Flunder': flunder },
  };
  const v3body = JSON.stringify({ openapi: '3.0.0', paths: { '/apis/wardle.example.com/v1alpha1/flunders': {} }, components: { schemas: {} } });
  let present = true;
  const remote: RemoteOpenAPI = {
    generation: () => gen,
    v2Documents: () => (present ? [remoteV2] : []),
    v3Document: p => (present && p === 'apis/wardle.example.com/v1alpha1' ? { body: v3body } : undefined),
    v3Paths: () => (present ? ['apis/wardle.example.com/v1alpha1'] : []),
  };
  const { get, json } = setup(remote);
  const doc = json('/openapi/v2');
  assert.equal(doc.paths['/apis/wardle.example.com/v1alpha1/flunders'].get.responses['200'].schema.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2');
  assert.equal(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_v2'].description, 'theirs');
  assert.notEqual(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].description, 'theirs');
  assert.deepEqual(doc.definitions['com.example.wardle.v1alpha1.Flunder'], flunder);
  assert.equal(doc.paths['/version']?.get.operationId, 'theirVersion');
  const index = json('/openapi/v3');
  assert.match(index.paths['apis/wardle.example.com/v1alpha1'].serverRelativeURL, /hash=/);
  assert.equal(String(get('/openapi/v3/apis/wardle.example.com/v1alpha1').body), v3body);
  // the extension goes away: its parts leave the documents
  present = false; gen++;
  assert.ok(!json('/openapi/v2').paths['/apis/wardle.example.com/v1alpha1/flunders']);
  assert.ok(!json('/openapi/v3').paths['apis/wardle.example.com/v1alpha1']);
  assert.equal(get('/openapi/v3/apis/wardle.example.com/v1alpha1'), undefined);
});
