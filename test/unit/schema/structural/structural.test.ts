import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import { crdSchemaErrors, structuralSchemaErrors, type JSONSchemaProps } from '../../../../src/schema/structural/index.ts';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const root = (props: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'object', properties: props, ...extra });

// [what, schema, structural errors as kube-apiserver prints them (sorted by their text)]
const structural: [string, JSONSchemaProps, string[]][] = [
  ['a structural schema', root({ spec: { type: 'object', properties: { n: { type: 'integer' } } } }), []],
  ['type missing at the root', { properties: {} }, [`${P}.type: Required value: must not be empty at the root`]],
  ['type missing on a field', root({ spec: { properties: {} } }), [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`]],
  ['type missing on items', root({ l: { type: 'array', items: {} } }), [`${P}.properties[l].items.type: Required value: must not be empty for specified array items`]],
  ['array without items', root({ l: { type: 'array' } }), [`${P}.properties[l].items: Required value: must be specified`]],
  ['preserve-unknown-fields needs no type', root({ any: { 'x-kubernetes-preserve-unknown-fields': true } }), []],
  ['root not an object', { type: 'string' }, [`${P}.type: Invalid value: "string": must be object at the root`]],
  ['additionalProperties at the root', { type: 'object', additionalProperties: { type: 'string' } }, [`${P}.additionalProperties: Forbidden: must not be used at the root`]],
  ['int-or-string with preserve', root({ p: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } }),
    [`${P}.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`]],
  ['int-or-string anyOf pattern is allowed', root({ p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }), []],
  ['embedded resource not an object', root({ t: { type: 'string', 'x-kubernetes-embedded-resource': true } }), [
    `${P}.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    `${P}.properties[t].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
  ]],
  ['embedded resource kind must be a string', root({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } } }),
    [`${P}.properties[t].properties[kind].type: Invalid value: "integer": must be string`]],
  ['metadata at the root may only narrow name', root({ metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } } }), []],
  ['metadata at the root with labels', root({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } }),
    [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]],
  ['metadata must be an object', root({ metadata: { type: 'string' } }), [`${P}.properties[metadata].type: Invalid value: "string": must be object`]],
  ['type inside anyOf', root({ v: { type: 'string', anyOf: [{ type: 'string' }] } }), [`${P}.properties[v].anyOf[0].type: Forbidden: must be empty to be structural`]],
  ['description, nullable and default inside allOf', root({ v: { type: 'string', allOf: [{ description: 'd', nullable: true, default: 'x' }] } }), [
    `${P}.properties[v].allOf[0].default: Forbidden: must be undefined to be structural`,
    `${P}.properties[v].allOf[0].description: Forbidden: must be empty to be structural`,
    `${P}.properties[v].allOf[0].nullable: Forbidden: must be false to be structural`,
  ]],
  ['metadata in a nested context', root({ v: { type: 'object', oneOf: [{ properties: { metadata: {} } }] } }), [
    `${P}.properties[v].oneOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
  ]],
  ['x-kubernetes-validations in not', root({ v: { type: 'string', not: { 'x-kubernetes-validations': [{ rule: 'true' }] } } }),
    [`${P}.properties[v].not.x-kubernetes-validations: Forbidden: must be empty to be structural`]],
  ['bad pattern', root({ v: { type: 'string', pattern: '(a' } }), [`${P}.properties[v].pattern: Invalid value: "(a": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(a\``]],
  ['value validation naming an unspecified field', root({ spec: { type: 'object' } }, { anyOf: [{ properties: { spec: { properties: { x: { minimum: 1 } } } } }] }),
    [`${P}.properties[spec].properties[x]: Required value: because it is defined in ${P}.anyOf[0].properties[spec].properties[x]`]],
];

for (const [what, schema, expected] of structural) {
  test(`structuralSchemaErrors: ${what}`, () => {
    assert.deepEqual(structuralSchemaErrors(schema, P).map(fieldErrorMessage), expected);
  });
}

const V = 'spec.versions[0].schema';
// [what, schema, status subresource, errors of the CRD schema rules]
const rules: [string, JSONSchemaProps, boolean, string[]][] = [
  ['status subresource: root type', { type: 'string' }, true, [
    `${V}.openAPIV3Schema.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
    `${P}.type: Invalid value: "string": must be object at the root`,
  ]],
  ['nullable root', { type: 'object', nullable: true }, false, [`${V}.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root`]],
  ['uniqueItems', root({ l: { type: 'array', items: { type: 'string' }, uniqueItems: true } }), false,
    [`${P}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]],
  ['unknown type', root({ v: { type: 'date' } }), false,
    [`${P}.properties[v].type: Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string"`]],
  ['properties and additionalProperties', root({ m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } } }), false,
    [`${P}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`]],
  ['$ref', root({ v: { type: 'object', $ref: '#/x' } }), false, [`${P}.properties[v].$ref: Forbidden: $ref is not supported`]],
  ['preserve-unknown-fields false', root({ v: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }), false,
    [`${P}.properties[v].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]],
  ['list-type on an object', root({ v: { type: 'object', 'x-kubernetes-list-type': 'set' } }), false,
    [`${P}.properties[v].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`]],
  ['unknown list-type', root({ v: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } }), false,
    [`${P}.properties[v].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`]],
  ['map keys without map', root({ v: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-map-keys': ['k'] } }), false,
    [`${P}.properties[v].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`]],
  ['map without keys', root({ v: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'map' } }), false,
    [`${P}.properties[v].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]],
  ['map key not a property, key not required', root({ v: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'z'] } }), false, [
    `${P}.properties[v].x-kubernetes-list-map-keys: Invalid value: ["k","z"]: entries must all be names of item properties`,
    `${P}.properties[v].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  ]],
  ['map-type unknown', root({ v: { type: 'object', 'x-kubernetes-map-type': 'sometimes' } }), false,
    [`${P}.properties[v].x-kubernetes-map-type: Unsupported value: "sometimes": supported values: "atomic", "granular"`]],
  ['set of granular objects', root({ v: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } } }), false,
    [`${P}.properties[v].items.x-kubernetes-map-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`]],
  ['default in top-level metadata', root({ metadata: { type: 'object', default: {} } }), false, [
    `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
  ]],
];

for (const [what, schema, statusSubresource, expected] of rules) {
  test(`crdSchemaErrors: ${what}`, () => {
    assert.deepEqual(crdSchemaErrors(schema, V, { statusSubresource }).map(fieldErrorMessage), expected);
  });
}

test('crdSchemaErrors: status subresource refuses other root fields in Go field names', () => {
  const [e] = crdSchemaErrors({ type: 'object', additionalProperties: { type: 'string' } }, V, { statusSubresource: true });
  assert.equal(e?.field, `${V}.openAPIV3Schema`);
  assert.match(e?.detail ?? '', /^only \[Description Type Format .* XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
});

test('structuralSchemaErrors: zero values and examples on metadata say nothing', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', nullable: false, example: {}, properties: { name: { type: 'string' }, generateName: { type: 'string' } } } } };
  assert.deepEqual(structuralSchemaErrors(schema, P), []);
  schema.properties!.metadata!.description = 'meta';
  assert.equal(structuralSchemaErrors(schema, P).length, 1);
});

// [what, schema, errors of its defaults]
const defaults: [string, JSONSchemaProps, string[]][] = [
  ['valid defaults', root({ spec: { type: 'object', default: {}, properties: { n: { type: 'integer', default: 3 }, l: { type: 'array', items: { type: 'string', default: 'x' } } } } }), []],
  ['a default of the wrong type', root({ spec: { type: 'object', properties: { n: { type: 'integer', default: 'three' } } } }),
    [`${P}.properties[spec].properties[n].default: Invalid value: "string":  in body must be of type integer: "string"`]],
  ['a default breaking the node\'s own rules', root({ spec: { type: 'object', properties: { s: { type: 'string', maxLength: 2, enum: ['a', 'bbb'], default: 'bbb' } } } }), [
    `${P}.properties[spec].properties[s].default: Too long: may not be more than 2 bytes`,
  ]],
  ['an object default missing a required field', root({ spec: { type: 'object', required: ['a'], default: {}, properties: { a: { type: 'string' } } } }),
    [`${P}.properties[spec].default.a: Required value`]],
  ['a default with unknown fields', root({ spec: { type: 'object', default: { a: 'x', zzz: 1 }, properties: { a: { type: 'string' } } } }),
    [`${P}.properties[spec].default: Invalid value: {"a":"x","zzz":1}: must not have unknown fields`]],
  ['an embedded resource default without kind', root({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1' } } }),
    [`${P}.properties[t].default.kind: Required value`]],
];

for (const [what, schema, expected] of defaults) {
  test(`crdSchemaErrors defaults: ${what}`, () => {
    assert.deepEqual(crdSchemaErrors(schema, V).map(fieldErrorMessage), expected);
  });
}
