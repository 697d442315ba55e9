import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdDefinitionName, crdDefinitions } from '../../../../src/schema/crd-openapi/definitions.ts';
import { publishedSchema, toOpenAPIV2, withoutDefaults } from '../../../../src/schema/crd-openapi/published-schema.ts';

type Json = Record<string, any>;

const schema = {
  type: 'object',
  description: 'Widget makes things.',
  example: { spec: {} },
  properties: {
    spec: {
      type: 'object',
      description: 'What the widget should be.',
      required: ['replicas', 'note'],
      properties: {
        replicas: { type: 'integer', description: 'How many widgets.', minimum: 0, default: 1 },
        note: { type: 'string', nullable: true },
        size: { 'x-kubernetes-int-or-string': true },
        mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }] },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      },
      'x-kubernetes-validations': [{ rule: 'self.replicas < 10', message: 'too many' }],
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};
const model = { group: 'stable.example.com', version: 'v1', kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', schema, selectableFields: ['.spec.mode'] };

test('definitions are named by the group reversed, version and kind', () => {
  assert.equal(crdDefinitionName('stable.example.com', 'v1', 'Widget'), 'com.example.stable.v1.Widget');
  assert.deepEqual(Object.keys(crdDefinitions(model, true)), ['com.example.stable.v1.Widget', 'com.example.stable.v1.WidgetList']);
});

test('v3: the structural schema with TypeMeta, ObjectMeta, GVK and selectable fields; descriptions kept', () => {
  const w = crdDefinitions(model, false)['com.example.stable.v1.Widget'] as Json;
  assert.equal(w.description, 'Widget makes things.');
  assert.equal(w.example, undefined, 'example is not part of a structural schema');
  assert.deepEqual(Object.keys(w.properties), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  assert.deepEqual(w.properties.metadata, { description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
  assert.match(w.properties.apiVersion.description, /^APIVersion defines the versioned schema/);
  assert.deepEqual(w['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'Widget', version: 'v1' }]);
  assert.deepEqual(w['x-kubernetes-selectable-fields'], [{ fieldPath: 'spec.mode' }]);
  const spec = w.properties.spec;
  assert.equal(spec.properties.replicas.description, 'How many widgets.');
  assert.equal(spec.properties.replicas.default, 1, 'v3 keeps defaults');
  assert.equal(spec.properties.note.nullable, true);
  assert.deepEqual(spec.properties.size.anyOf, [{ type: 'integer' }, { type: 'string' }], 'int-or-string unfolded');
  assert.deepEqual(spec['x-kubernetes-validations'], [{ rule: 'self.replicas < 10', message: 'too many' }]);
  assert.deepEqual(spec.properties.ports['x-kubernetes-list-map-keys'], ['name']);
  // an embedded resource gets TypeMeta and ObjectMeta, and must name its kind and apiVersion
  const tpl = spec.properties.template;
  assert.deepEqual(Object.keys(tpl.properties), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.deepEqual(tpl.required, ['kind', 'apiVersion']);
  const list = crdDefinitions(model, false)['com.example.stable.v1.WidgetList'] as Json;
  assert.equal(list.description, 'WidgetList is a list of Widget');
  assert.deepEqual(list.properties.items.items, { $ref: '#/components/schemas/com.example.stable.v1.Widget' });
  assert.equal(list.properties.metadata.$ref, '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
  assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'WidgetList', version: 'v1' }]);
});

test('v2: what Swagger 2.0 and kubectl cannot take is stripped, as ToStructuralOpenAPIV2 and PruneDefaults do', () => {
  const w = crdDefinitions(model, true)['com.example.stable.v1.Widget'] as Json;
  assert.equal(w.properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  const spec = w.properties.spec;
  assert.equal(spec.properties.replicas.default, undefined);
  assert.equal(spec.properties.replicas.minimum, 0);
  assert.deepEqual(spec.properties.note, {}, 'a nullable value loses its type');
  assert.deepEqual(spec.required, ['replicas'], 'a nullable field is no longer required');
  assert.deepEqual(spec.properties.size, { 'x-kubernetes-int-or-string': true });
  assert.equal(spec.properties.mode.oneOf, undefined);
  assert.deepEqual(spec.properties.extra, { 'x-kubernetes-preserve-unknown-fields': true });
  assert.equal(spec.description, 'What the widget should be.');
  // a root that keeps unknown fields is a bare object in v2, but still names its kind
  const open = crdDefinitions({ ...model, schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, true)['com.example.stable.v1.Widget'];
  assert.deepEqual(open, { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'Widget', version: 'v1' }], 'x-kubernetes-selectable-fields': [{ fieldPath: 'spec.mode' }] });
  const open3 = crdDefinitions({ ...model, schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, false)['com.example.stable.v1.Widget'] as Json;
  assert.ok(open3.properties.metadata, 'v3 keeps the metadata of an open root');
});

test('an array whose items v2 had to drop loses its type; a field named default survives pruning', () => {
  const s = publishedSchema({ type: 'object', properties: { list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } }, default: { type: 'string', default: 'x' } } });
  const v2 = withoutDefaults(toOpenAPIV2(s)) as Json;
  assert.deepEqual(v2.properties.list, { 'x-kubernetes-preserve-unknown-fields': true });
  assert.deepEqual(v2.properties.default, { type: 'string' });
});
