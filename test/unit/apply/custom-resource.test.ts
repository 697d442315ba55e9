import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyConfiguration, type ManagerContext } from '../../../src/apply/index.ts';
import { FieldSet, pathString } from '../../../src/apply/field-set.ts';
import { StatusError } from '../../../src/api/status.ts';
import { customResourceNode } from '../../../src/schema/custom-resource-node.ts';
import { managerContext } from '../../../src/registry/field-managers.ts';
import { servedResources } from '../../../src/registry/apiextensions/served-resources.ts';
import type { Crd } from '../../../src/registry/apiextensions/crd-types.ts';

type Obj = Record<string, any>;

// a version schema using every list and map type apply honours
const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'protocol'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'SCTP' }, port: { type: 'integer' } } },
        },
        args: { type: 'array', items: { type: 'string' } },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' }, tier: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        frozen: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        size: { 'x-kubernetes-int-or-string': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        matrix: { type: 'array', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

const ctx = (manager: string): ManagerContext => ({
  definition: '', schema: customResourceNode(schema), apiVersion: 'example.com/v1', manager, subresource: '', now: '2026-11-27T17:00:00Z',
});
const widget = (spec: Obj, extra: Obj = {}): Obj => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec, ...extra });
const apply = (live: Obj | undefined, config: Obj, manager: string, force = false): Obj => applyConfiguration(live, config, ctx(manager), force) as Obj;
const owned = (obj: Obj, manager: string): string[] => {
  const e = (obj.metadata.managedFields as Obj[]).find(x => x.manager === manager);
  return e ? [...FieldSet.fromFieldsV1(e.fieldsV1).paths()].map(pathString) : [];
};
const conflictFields = (fn: () => unknown): string[] => {
  try { fn(); } catch (e) {
    assert.ok(e instanceof StatusError && e.code === 409, String(e));
    return (e.status.details?.causes ?? []).map(c => c.field ?? '');
  }
  assert.fail('expected a conflict');
};

test('a map list: two managers own different items; dropping its item removes only that one', () => {
  let obj = apply(undefined, widget({ ports: [{ name: 'http', protocol: 'TCP', port: 80 }] }), 'a');
  obj = apply(obj, widget({ ports: [{ name: 'dns', protocol: 'UDP', port: 53 }] }), 'b');
  assert.deepEqual(obj.spec.ports.map((p: Obj) => p.name), ['http', 'dns']);
  assert.ok(owned(obj, 'a').includes('.spec.ports[name="http",protocol="TCP"].port'));
  assert.ok(owned(obj, 'b').includes('.spec.ports[name="dns",protocol="UDP"].port'));
  assert.ok(!owned(obj, 'a').some(p => p.includes('dns')));
  // the managedFields keys are the item's list-map keys as JSON, as Kubernetes writes them
  const entry = (obj.metadata.managedFields as Obj[]).find(x => x.manager === 'b');
  assert.deepEqual(Object.keys(entry!.fieldsV1['f:spec']['f:ports']), ['k:{"name":"dns","protocol":"UDP"}']);
  // b changing a's item conflicts on that item's field only
  assert.deepEqual(conflictFields(() => apply(obj, widget({ ports: [{ name: 'http', protocol: 'TCP', port: 8080 }] }), 'b')), ['.spec.ports[name="http",protocol="TCP"].port']);
  obj = apply(obj, widget({}), 'b');
  assert.deepEqual(obj.spec.ports.map((p: Obj) => p.name), ['http']);
});

test('a map list key the item leaves out is its schema default, as defaulting will set it', () => {
  const obj = apply(undefined, widget({ ports: [{ name: 'http', port: 80 }] }), 'a');
  assert.ok(owned(obj, 'a').includes('.spec.ports[name="http",protocol="SCTP"].port'), owned(obj, 'a').join());
  // the same item written out in full is the same item
  const again = apply(obj, widget({ ports: [{ name: 'http', protocol: 'SCTP', port: 80 }] }), 'b');
  assert.equal(again.spec.ports.length, 1);
});

test('a list without a list type is atomic: owned whole, replaced whole, a conflict on the list', () => {
  const obj = apply(undefined, widget({ args: ['--a', '--b'] }), 'a');
  assert.ok(owned(obj, 'a').includes('.spec.args'));
  assert.ok(!owned(obj, 'a').some(p => p.startsWith('.spec.args[')));
  assert.deepEqual(conflictFields(() => apply(obj, widget({ args: ['--c'] }), 'b')), ['.spec.args']);
  const forced = apply(obj, widget({ args: ['--c'] }), 'b', true);
  assert.deepEqual(forced.spec.args, ['--c']);
  assert.ok(!owned(forced, 'a').includes('.spec.args'));
});

test('a set: values are owned one by one and merged', () => {
  let obj = apply(undefined, widget({ tags: ['x', 'y'] }), 'a');
  obj = apply(obj, widget({ tags: ['y', 'z'] }), 'b');
  assert.deepEqual(obj.spec.tags, ['x', 'y', 'z']);
  assert.deepEqual(owned(obj, 'b').filter(p => p.startsWith('.spec.tags')), ['.spec.tags[="y"]', '.spec.tags[="z"]']);
  obj = apply(obj, widget({}), 'a');
  assert.deepEqual(obj.spec.tags, ['y', 'z'], 'x goes; y stays, b still owns it');
  // a set inside list items (no property holds it) is read from the items' own schema: still atomic outside
  const m = apply(undefined, widget({ matrix: [[1, 2]] }), 'a');
  assert.ok(owned(m, 'a').includes('.spec.matrix'));
});

test('map types: granular maps merge per key, atomic objects and maps are one value', () => {
  let obj = apply(undefined, widget({ labels: { a: '1' }, selector: { app: 'x' }, frozen: { k: 'v' } }), 'a');
  obj = apply(obj, widget({ labels: { b: '2' } }), 'b');
  assert.deepEqual(obj.spec.labels, { a: '1', b: '2' });
  assert.ok(owned(obj, 'a').includes('.spec.selector') && owned(obj, 'a').includes('.spec.frozen'));
  assert.ok(!owned(obj, 'a').some(p => p.startsWith('.spec.selector.') || p.startsWith('.spec.frozen.')));
  assert.deepEqual(conflictFields(() => apply(obj, widget({ selector: { tier: 'db' } }), 'b')), ['.spec.selector']);
  const forced = apply(obj, widget({ frozen: { other: 'v' } }), 'b', true);
  assert.deepEqual(forced.spec.frozen, { other: 'v' }, 'an atomic map is replaced, not merged');
});

test('preserved unknown fields are deduced: objects merge per key, lists and scalars are owned whole', () => {
  let obj = apply(undefined, widget({ extra: { deep: { x: 1 }, list: [1] } }), 'a');
  obj = apply(obj, widget({ extra: { deep: { y: 2 } } }), 'b');
  assert.deepEqual(obj.spec.extra.deep, { x: 1, y: 2 });
  assert.ok(owned(obj, 'b').includes('.spec.extra.deep.y'));
  assert.deepEqual(conflictFields(() => apply(obj, widget({ extra: { list: [2] } }), 'b')), ['.spec.extra.list']);
  // an embedded resource: its metadata is ObjectMeta (labels per key), the rest deduced
  let t = apply(undefined, widget({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: '1' } }, spec: { n: 1 } } }), 'a');
  t = apply(t, widget({ template: { metadata: { labels: { b: '2' } } } }), 'b');
  assert.deepEqual(t.spec.template.metadata.labels, { a: '1', b: '2' });
});

test('int-or-string is a scalar; the object metadata is ObjectMeta whatever the schema says', () => {
  const obj = apply(undefined, { ...widget({ size: '50%' }), metadata: { name: 'w', labels: { a: '1' } } }, 'a');
  assert.ok(owned(obj, 'a').includes('.spec.size'));
  assert.ok(owned(obj, 'a').includes('.metadata.labels.a'));
  assert.deepEqual(conflictFields(() => apply(obj, widget({ size: 3 }), 'b')), ['.spec.size']);
});

test('status: owned by the main resource only when the version has no status subresource', () => {
  const crd = (status: boolean): Crd => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(status ? { subresources: { status: {} } } : {}) }] },
    status: { acceptedNames: { plural: 'widgets', kind: 'Widget' }, conditions: [{ type: 'Established', status: 'True' }] },
  } as unknown as Crd);
  for (const withStatus of [false, true]) {
    const info = servedResources(crd(withStatus))[0]!;
    const mctx = managerContext(info, 'a', undefined, '2026-11-27T17:00:00Z');
    const obj = applyConfiguration(undefined, widget({ args: ['x'] }, { status: { ready: true } }), mctx, false) as Obj;
    assert.equal(obj.status?.ready, withStatus ? undefined : true);
    assert.equal(owned(obj, 'a').includes('.status.ready'), !withStatus);
    assert.ok(owned(obj, 'a').includes('.spec.args'));
  }
});

test("a custom resource's scale subresource owns its specReplicasPath", () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } },
      subresources: { scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } } }] },
    status: { acceptedNames: { plural: 'widgets', kind: 'Widget' }, conditions: [{ type: 'Established', status: 'True' }] },
  } as unknown as Crd;
  const info = servedResources(crd)[0]!;
  assert.deepEqual(managerContext(info, 'hpa', 'scale', 'now').owns, [['spec', 'size']]);
});
