import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCustomResource, pruneCustomResource, unknownFieldMessage, type JSONSchemaProps } from '../../../../src/schema/structural/index.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'Fast' },
        note: { type: 'string', nullable: true, default: 'n' },
        opt: { type: 'string' },
        nested: { type: 'object', default: {}, properties: { level: { type: 'integer', default: 3 } } },
        ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string', default: 'none' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } },
      },
    },
  },
};

// [what, object in, object out, pruned paths]
const pruneCases: [string, unknown, unknown, string[]][] = [
  ['unknown fields are dropped and reported', { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'a' }, spec: { foo: 1, replicas: 2 }, extra: true },
    { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'a' }, spec: { replicas: 2 } }, ['extra', 'spec.foo']],
  ['unknown metadata fields go too', { metadata: { name: 'a', labels: { x: 'y' }, colour: 'red' }, spec: {} }, { metadata: { name: 'a', labels: { x: 'y' } }, spec: {} }, ['metadata.colour']],
  ['in list items', { spec: { ports: [{ port: 80, bogus: 1 }] } }, { spec: { ports: [{ port: 80 }] } }, ['spec.ports[0].bogus']],
  ['preserve-unknown-fields keeps unknown fields, specified ones still pruned inside', { spec: { free: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
    { spec: { free: { anything: { deep: 1 }, known: { a: 'x' } } } }, ['spec.free.known.b']],
  ['embedded resources keep apiVersion, kind and metadata', { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a', y: 'b' }, status: {} } } },
    { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a' } } } }, ['spec.template.spec.y', 'spec.template.status']],
  ['non-nullable nulls without default go, others stay for defaulting', { spec: { opt: null, replicas: null, note: null } },
    { spec: { replicas: null, note: null } }, []],
];

for (const [what, input, output, paths] of pruneCases) {
  test(`pruneCustomResource: ${what}`, () => {
    const before = structuredClone(input);
    const r = pruneCustomResource(schema, input);
    assert.deepEqual(r.object, output);
    assert.deepEqual(r.unknownFields, paths);
    assert.deepEqual(input, before, 'the input is left alone');
  });
}

test('pruneCustomResource: the strict decoding message', () => {
  assert.equal(unknownFieldMessage('spec.foo'), 'unknown field "spec.foo"');
});

test('pruneCustomResource: without a schema everything but type and object meta goes', () => {
  const r = pruneCustomResource(undefined, { apiVersion: 'x/v1', kind: 'K', metadata: {}, spec: { a: 1 } });
  assert.deepEqual(r.object, { apiVersion: 'x/v1', kind: 'K', metadata: {} });
  assert.deepEqual(r.unknownFields, ['spec']);
});

// [what, object in, object out]
const defaultCases: [string, unknown, unknown][] = [
  ['absent fields take defaults, and defaults recurse', { spec: {} },
    { spec: { replicas: 1, mode: 'Fast', note: 'n', nested: { level: 3 } } }],
  ['present values stay', { spec: { replicas: 5, mode: 'Slow', nested: { level: 1 } } },
    { spec: { replicas: 5, mode: 'Slow', note: 'n', nested: { level: 1 } } }],
  ['null non-nullable takes the default, nullable null stays', { spec: { replicas: null, note: null } },
    { spec: { replicas: 1, mode: 'Fast', note: null, nested: { level: 3 } } }],
  ['list items', { spec: { ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] } },
    { spec: { replicas: 1, mode: 'Fast', note: 'n', nested: { level: 3 }, ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] } }],
  ['additionalProperties null values', { spec: { labels: { a: null, b: 'x' } } },
    { spec: { replicas: 1, mode: 'Fast', note: 'n', nested: { level: 3 }, labels: { a: 'none', b: 'x' } } }],
  ['no spec, no defaults below it', { metadata: {} }, { metadata: {} }],
];

for (const [what, input, output] of defaultCases) {
  test(`defaultCustomResource: ${what}`, () => {
    const before = structuredClone(input);
    assert.deepEqual(defaultCustomResource(schema, input), output);
    assert.deepEqual(input, before);
  });
}

test('defaultCustomResource: a default is a copy, not shared between objects', () => {
  const a = defaultCustomResource(schema, { spec: {} }) as { spec: { nested: { level: number } } };
  a.spec.nested.level = 9;
  const b = defaultCustomResource(schema, { spec: {} }) as { spec: { nested: { level: number } } };
  assert.equal(b.spec.nested.level, 3);
  assert.deepEqual(schema.properties!.spec!.properties!.nested!.default, {});
});
