import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../../support/fake-request.ts';
import { validateCrdSchemas } from '../../../../src/registry/apiextensions/crd-schemas.ts';

const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(schema: object, subresources?: object) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(subresources ? { subresources } : {}) }],
    },
  };
}

test('a CRD with a non-structural schema is refused in kube-apiserver\'s words; a structural one is stored', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const bad = await api.request('POST', path, { body: crd({ type: 'object', properties: { spec: { properties: { size: { type: 'integer' } } } } }) });
  assert.equal(bad.status, 422, String(bad.body));
  assert.equal(bad.json().message,
    'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields');
  const status = await api.request('POST', path, { body: crd({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, nullable: true }, { status: {} }) });
  assert.equal(status.status, 422);
  assert.match(status.json().message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.nullable: Forbidden: nullable cannot be true at the root/);
  const good = await api.request('POST', path, { body: crd({ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 1 } } } } }) });
  assert.equal(good.status, 201, String(good.body));
  const stored = good.json();
  stored.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.type = 'date';
  const put = await api.request('PUT', `${path}/widgets.example.com`, { body: stored });
  assert.equal(put.status, 422, String(put.body));
  assert.match(put.json().message, /properties\[spec\]\.properties\[size\]\.type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"/);
});

test('an update that leaves a version schema as it was is held to the total only', () => {
  const withItems = (maxItems: number) => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ws.example.com' },
    spec: { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { l: { type: 'array', maxItems, items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } } } } } }] },
  });
  const over = withItems(8_000_000);
  assert.equal(validateCrdSchemas(over).length, 1, 'refused on create');
  assert.deepEqual(validateCrdSchemas(structuredClone(over), over), [], 'kept as it was on update');
  assert.equal(validateCrdSchemas(withItems(9_000_000), over).length, 1, 'changed: checked again');
});
