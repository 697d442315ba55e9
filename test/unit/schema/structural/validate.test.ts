import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import { validateCustomResource, validateCustomResourceStatus, validateCustomResourceUpdate, type JSONSchemaProps } from '../../../../src/schema/structural/index.ts';

const obj = (props: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', properties: props, ...extra } } });
const cr = (spec: unknown) => ({ apiVersion: 'x.io/v1', kind: 'Foo', metadata: { name: 'a' }, spec });

// [what, schema, object, messages as kube-apiserver prints them]
const cases: [string, JSONSchemaProps, unknown, string[]][] = [
  ['valid object', obj({ replicas: { type: 'integer' } }), cr({ replicas: 3 }), []],
  ['integer given a string', obj({ replicas: { type: 'integer' } }), cr({ replicas: 'x' }),
    ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']],
  ['integer given a fraction', obj({ replicas: { type: 'integer' } }), cr({ replicas: 1.5 }),
    // the number validator's range check fails too, on <nil>, as kube-openapi reports it
    ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"', '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.replicas']],
  ['number takes integers', obj({ r: { type: 'number' } }), cr({ r: 2 }), []],
  ['string given an object', obj({ s: { type: 'string' } }), cr({ s: {} }),
    ['spec.s: Invalid value: "object": spec.s in body must be of type string: "object"']],
  ['boolean given an array', obj({ b: { type: 'boolean' } }), cr({ b: [] }),
    ['spec.b: Invalid value: "array": spec.b in body must be of type boolean: "array"']],
  ['null is not a string', obj({ s: { type: 'string' } }), cr({ s: null }),
    ['spec.s: Invalid value: "null": spec.s in body must be of type string: "null"']],
  ['nullable takes null', obj({ s: { type: 'string', nullable: true } }), cr({ s: null }), []],
  ['int-or-string takes both', obj({ p: { 'x-kubernetes-int-or-string': true } }), cr({ p: 'http' }), []],
  ['int-or-string refuses booleans', obj({ p: { 'x-kubernetes-int-or-string': true } }), cr({ p: true }),
    ['spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"']],
  ['required', obj({ a: { type: 'string' } }, { required: ['a'] }), cr({}), ['spec.a: Required value']],
  ['required at the root', { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } }, { apiVersion: 'x.io/v1', kind: 'Foo', metadata: {} },
    ['spec: Required value']],
  ['enum', obj({ mode: { type: 'string', enum: ['Fast', 'Slow'] } }), cr({ mode: 'Medium' }),
    ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"']],
  ['enum of numbers quotes them', obj({ n: { type: 'integer', enum: [1, 2] } }), cr({ n: 3 }),
    ['spec.n: Unsupported value: 3: supported values: "1", "2"']],
  ['pattern', obj({ s: { type: 'string', pattern: '^[a-z]+$' } }), cr({ s: 'A1' }),
    ['spec.s: Invalid value: "A1": spec.s in body should match \'^[a-z]+$\'']],
  ['maxLength counts characters', obj({ s: { type: 'string', maxLength: 3 } }), cr({ s: 'éééé' }),
    ['spec.s: Too long: may not be more than 3 bytes']],
  ['maxLength ok', obj({ s: { type: 'string', maxLength: 3 } }), cr({ s: 'ééé' }), []],
  ['minLength', obj({ s: { type: 'string', minLength: 2 } }), cr({ s: 'a' }),
    ['spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long']],
  ['maximum', obj({ n: { type: 'integer', maximum: 10 } }), cr({ n: 11 }),
    ['spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10']],
  ['exclusive maximum', obj({ n: { type: 'integer', maximum: 10, exclusiveMaximum: true } }), cr({ n: 10 }),
    ['spec.n: Invalid value: 10: spec.n in body should be less than 10']],
  ['minimum', obj({ n: { type: 'number', minimum: 0.5 } }), cr({ n: 0.25 }),
    ['spec.n: Invalid value: 0.25: spec.n in body should be greater than or equal to 0.5']],
  ['exclusive minimum', obj({ n: { type: 'integer', minimum: 0, exclusiveMinimum: true } }), cr({ n: 0 }),
    ['spec.n: Invalid value: 0: spec.n in body should be greater than 0']],
  // an integer value compares with the bound truncated to an int64, as MaximumNativeType does
  ['integer value against a fractional bound', obj({ n: { type: 'number', maximum: 1500000.5 } }), cr({ n: 2e6 }),
    ['spec.n: Invalid value: 2000000: spec.n in body should be less than or equal to 1500000']],
  ['large float bound in Go form', obj({ n: { type: 'number', maximum: 1500000.5 } }), cr({ n: 2000000.5 }),
    ['spec.n: Invalid value: 2000000.5: spec.n in body should be less than or equal to 1.5000005e+06']],
  ['multipleOf', obj({ n: { type: 'integer', multipleOf: 5 } }), cr({ n: 7 }),
    ['spec.n: Invalid value: 7: spec.n in body should be a multiple of 5']],
  ['int32 range', obj({ n: { type: 'integer', format: 'int32' } }), cr({ n: 2 ** 31 }),
    ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.n']],
  ['minItems', obj({ l: { type: 'array', items: { type: 'string' }, minItems: 2 } }), cr({ l: ['a'] }),
    ['spec.l: Invalid value: 1: spec.l in body should have at least 2 items']],
  ['maxItems', obj({ l: { type: 'array', items: { type: 'string' }, maxItems: 1 } }), cr({ l: ['a', 'b'] }),
    ['spec.l: Too many: 2: must have at most 1 items']],
  ['uniqueItems', obj({ l: { type: 'array', items: { type: 'object' }, uniqueItems: true } }), cr({ l: [{ a: 1, b: 2 }, { b: 2, a: 1 }] }),
    ['spec.l: Invalid value: "": spec.l in body shouldn\'t contain duplicates']],
  ['item types', obj({ l: { type: 'array', items: { type: 'integer' } } }), cr({ l: [1, 'x'] }),
    ['spec.l[1]: Invalid value: "string": spec.l[1] in body must be of type integer: "string"']],
  ['minProperties', obj({ m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 2 } }), cr({ m: { a: 'x' } }),
    ['spec.m: Invalid value: 1: spec.m in body should have at least 2 properties']],
  ['maxProperties', obj({ m: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 1 } }), cr({ m: { a: 'x', b: 'y' } }),
    ['spec.m: Too many: 2: must have at most 1 items']],
  ['additionalProperties values', obj({ m: { type: 'object', additionalProperties: { type: 'string' } } }), cr({ m: { a: 1 } }),
    ['spec.m.a: Invalid value: "integer": spec.m.a in body must be of type string: "integer"']],
  ['anyOf on <nil>', obj({ v: { type: 'integer', anyOf: [{ minimum: 10 }, { maximum: 1 }] } }), cr({ v: 5 }),
    ['<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf)', 'spec.v: Invalid value: 5: spec.v in body should be greater than or equal to 10']],
  ['oneOf with two valid', obj({ v: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] } }), cr({ v: 5 }),
    ['<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives']],
  ['not', obj({ v: { type: 'string', not: { enum: ['x'] } } }), cr({ v: 'x' }), ['<nil>: Invalid value: "": "spec.v" must not validate the schema (not)']],
  ['formats: date-time', obj({ t: { type: 'string', format: 'date-time' } }), cr({ t: 'yesterday' }),
    ['spec.t: Invalid value: "yesterday": spec.t in body must be of type date-time: "yesterday"']],
  ['formats: unknown formats are stripped', obj({ t: { type: 'string', format: 'color' } }), cr({ t: 'anything' }), []],
  ['formats: int32 on integers only checks the type', obj({ n: { type: 'integer', format: 'int32' } }), cr({ n: 5 }), []],
  ['format on an array of type string skips the type check', obj({ t: { type: 'string', format: 'date' } }), cr({ t: [1] }), []],
  ['list-type set duplicates', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } }), cr({ l: ['a', 'b', 'a', 'a'] }),
    ['spec.l[2]: Duplicate value: "a"']],
  ['list-type set tells 1 from "1"', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { 'x-kubernetes-int-or-string': true } } }), cr({ l: [1, '1'] }), []],
  ['list-type map duplicate keys', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'integer' } } } } }),
    cr({ l: [{ name: 'a', v: 1 }, { name: 'a', v: 2 }] }), ['spec.l[1]: Duplicate value: {"name":"a"}']],
  ['list-type map with two keys', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } } } }),
    cr({ l: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }, { protocol: 'TCP', port: 80 }] }), ['spec.l[2]: Duplicate value: {"port":80,"protocol":"TCP"}']],
  ['list-type map items must be objects', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { 'x-kubernetes-preserve-unknown-fields': true } } }),
    cr({ l: ['x'] }), ['spec.l[0]: Invalid value: "x": must be an object for an array of list-type map']],
];

const embeddedSchema = obj({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } });
cases.push(
  ['embedded resource needs apiVersion and kind', embeddedSchema, cr({ template: { metadata: {} } }), ['spec.template.apiVersion: Required value', 'spec.template.kind: Required value']],
  ['embedded resource kind and apiVersion', embeddedSchema, cr({ template: { apiVersion: 'a/b/c', kind: 'Foo_Bar' } }), [
    'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.template.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
  ]],
  ['embedded resource metadata', embeddedSchema, cr({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } } } }), [
    'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
    'spec.template.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
  ]],
  ['embedded resource valid', embeddedSchema, cr({ template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } } }), []],
);

for (const [what, schema, object, expected] of cases) {
  test(`validateCustomResource: ${what}`, () => {
    assert.deepEqual(validateCustomResource(schema, object).map(fieldErrorMessage), expected);
  });
}

test('validateCustomResourceStatus puts errors under status', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { status: { type: 'object', required: ['ready'], properties: { replicas: { type: 'integer' }, ready: { type: 'boolean' } } } } };
  assert.deepEqual(validateCustomResourceStatus(schema, { replicas: 'x' }).map(fieldErrorMessage), [
    'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
    'status.ready: Required value',
  ]);
});

// ratcheting: [what, schema, new, old, messages]
const ratchet: [string, JSONSchemaProps, unknown, unknown, string[]][] = [
  ['an unchanged invalid field passes', obj({ n: { type: 'integer', maximum: 5 }, m: { type: 'string' } }), cr({ n: 9, m: 'b' }), cr({ n: 9, m: 'a' }), []],
  ['a changed invalid field fails', obj({ n: { type: 'integer', maximum: 5 } }), cr({ n: 8 }), cr({ n: 9 }),
    ['spec.n: Invalid value: 8: spec.n in body should be less than or equal to 5']],
  ['map list items correlate by key', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string', maxLength: 1 } } } } }),
    cr({ l: [{ k: 'b', v: 'new' }, { k: 'a', v: 'old' }] }), cr({ l: [{ k: 'a', v: 'old' }] }), ['spec.l[0].v: Too long: may not be more than 1 bytes']],
  ['atomic list items do not correlate', obj({ l: { type: 'array', items: { type: 'string', maxLength: 1 } } }),
    cr({ l: ['x', 'old'] }), cr({ l: ['old'] }), ['spec.l[1]: Too long: may not be more than 1 bytes']],
  ['duplicates already there are not reported', obj({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } }), cr({ l: ['a', 'a', 'b', 'b'] }), cr({ l: ['a', 'a'] }), []],
];

for (const [what, schema, next, old, expected] of ratchet) {
  test(`validateCustomResourceUpdate: ${what}`, () => {
    assert.deepEqual(validateCustomResourceUpdate(schema, next, old).map(fieldErrorMessage), expected);
  });
}

test('embedded resource metadata that does not decode as ObjectMeta', () => {
  const schema: JSONSchemaProps = obj({ t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } });
  const msgs = (metadata: unknown) => validateCustomResource(schema, cr({ t: { apiVersion: 'v1', kind: 'Pod', metadata } })).map(e => `${e.field}: ${e.detail}`);
  assert.deepEqual(msgs('x'), ['spec.t.metadata: invalid metadata: expected object, got string']);
  assert.deepEqual(msgs({ name: 5 }), ['spec.t.metadata: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string']);
  assert.deepEqual(msgs({ labels: { a: true } }), ['spec.t.metadata: json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string']);
});

// cases of apiextensions-apiserver's own validation tests (their messages, compared as sets)
const intOrStringAnyOf: JSONSchemaProps = { type: 'object', properties: { field: { nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } };
const upstream: [string, JSONSchemaProps, unknown, string[]][] = [
  ['int-or-string with its anyOf: a boolean', intOrStringAnyOf, { field: true }, [
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
    'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
  ]],
  ['int-or-string with its anyOf: a fraction', intOrStringAnyOf, { field: 1.2 }, [
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field: Invalid value: "number": field in body must be of type integer,string: "number"',
    'field: Invalid value: "number": field in body must be of type integer: "number"',
    '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field',
  ]],
  ['int-or-string with its anyOf: null and values pass', intOrStringAnyOf, { field: null }, []],
  ['an invalid pattern', { type: 'object', properties: { field: { type: 'string', pattern: '+' } } }, { field: 'foo' }, [
    "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
  ]],
  ['a nested required field', { type: 'object', properties: { field: { type: 'object', required: ['nested'] } } }, { field: {} }, ['field.nested: Required value']],
];

for (const [what, schema, object, expected] of upstream) {
  test(`validateCustomResource as upstream: ${what}`, () => {
    assert.deepEqual(validateCustomResource(schema, object).map(fieldErrorMessage).sort(), [...expected].sort());
  });
}

test('validateCustomResource as upstream: numeric formats', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { intThirtyTwo: { type: 'integer', format: 'int32' }, intSixtyFour: { type: 'integer', format: 'int64' }, floatThreeTwo: { type: 'number', format: 'float' }, floatSixFour: { type: 'number', format: 'double' } } };
  const msgs = (o: object) => validateCustomResource(schema, o).map(fieldErrorMessage).sort();
  assert.deepEqual(msgs({ intThirtyTwo: -(2 ** 31), intSixtyFour: 0, floatThreeTwo: 3.4028234663852886e38, floatSixFour: -1.7976931348623157e308 }), []);
  assert.deepEqual(msgs({ intThirtyTwo: 2 ** 31 }), ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo']);
  assert.deepEqual(msgs({ intSixtyFour: 9223372036854775807 * 1.1 }), [
    '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour',
    'intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
  ]);
  assert.deepEqual(msgs({ floatThreeTwo: 3.4028234663852886e38 * 1.1 }), ['<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo']);
});

test('a pattern matches the same way every time (no state kept between values)', () => {
  const schema = obj({ l: { type: 'array', items: { type: 'string', pattern: '^[A-Z][a-z]+$' } } });
  assert.deepEqual(validateCustomResource(schema, cr({ l: ['Ok', 'Ready', 'Done', 'Fine'] })), []);
  assert.deepEqual(validateCustomResource(schema, cr({ l: ['Ok', 'Ok'] })), []);
});
