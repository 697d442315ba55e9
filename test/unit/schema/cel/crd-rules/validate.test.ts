// CRD rules evaluated over whole objects: what `self` and `oldSelf` are at each node, and the
// field errors as Kubernetes words and places them (cases as data).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { validateCelRules, validateCelRulesDetailed } from '../../../../../src/schema/cel/crd-rules/validate.ts';
import type { RuleSchema, ValidationRule } from '../../../../../src/schema/cel/crd-rules/schema.ts';

const rules = (...r: Array<string | ValidationRule>): ValidationRule[] => r.map(x => (typeof x === 'string' ? { rule: x } : x));
const cr = (spec: RuleSchema, extra: RuleSchema = {}): RuleSchema => ({ type: 'object', properties: { spec: { type: 'object', ...spec } }, ...extra });

interface Case { name: string; schema: RuleSchema; obj: unknown; old?: unknown; want: string[] }

const cases: Case[] = [
  { name: 'a scalar rule shows the value', schema: cr({ properties: { replicas: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self <= 10', message: 'must be at most 10' }) } } }),
    obj: { spec: { replicas: 11 } }, want: ['spec.replicas: Invalid value: 11: must be at most 10'] },
  { name: 'a passing rule reports nothing', schema: cr({ properties: { replicas: { type: 'integer', 'x-kubernetes-validations': rules('self <= 10') } } }),
    obj: { spec: { replicas: 3 } }, want: [] },
  { name: 'default message, object value omitted', schema: cr({ 'x-kubernetes-validations': rules('self.min <= self.max'), properties: { min: { type: 'integer' }, max: { type: 'integer' } } }),
    obj: { spec: { min: 5, max: 1 } }, want: ['spec: Invalid value: failed rule: self.min <= self.max'] },
  { name: 'string values are quoted', schema: cr({ properties: { mode: { type: 'string', 'x-kubernetes-validations': rules({ rule: "self in ['a', 'b']", message: 'must be a or b' }) } } }),
    obj: { spec: { mode: 'c' } }, want: ['spec.mode: Invalid value: "c": must be a or b'] },
  { name: 'a root rule is reported at <nil>, metadata shows name', schema: { type: 'object', 'x-kubernetes-validations': rules("self.metadata.name.startsWith('x')"), properties: {} },
    obj: { apiVersion: 'v1', kind: 'K', metadata: { name: 'y', labels: { a: 'b' } } }, want: ["<nil>: Invalid value: failed rule: self.metadata.name.startsWith('x')"] },
  // a rule the type check refuses (the CRD write refuses it first) is reported at each object
  { name: 'metadata shows name and generateName only', schema: { type: 'object', 'x-kubernetes-validations': rules('!has(self.metadata.labels)'), properties: {} },
    obj: { apiVersion: 'v1', kind: 'K', metadata: { name: 'y' } },
    want: ["<nil>: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:2: undefined field 'labels'\n | !has(self.metadata.labels)\n | .^"] },
  { name: 'apiVersion and kind are there at the root', schema: { type: 'object', 'x-kubernetes-validations': rules("self.kind == 'K' && self.apiVersion == 'g/v1'") },
    obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a' } }, want: [] },
  { name: 'fieldPath places the error', schema: cr({ 'x-kubernetes-validations': rules({ rule: 'self.replicas <= 10', message: 'too many', fieldPath: '.replicas' }), properties: { replicas: { type: 'integer' } } }),
    obj: { spec: { replicas: 12 } }, want: ['spec.replicas: Invalid value: too many'] },
  { name: 'fieldPath into a map key', schema: cr({ 'x-kubernetes-validations': rules({ rule: "self.labels['a.b'] == 'x'", fieldPath: ".labels['a.b']" }), properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } }),
    obj: { spec: { labels: { 'a.b': 'y' } } }, want: ["spec.labels[a.b]: Invalid value: failed rule: self.labels['a.b'] == 'x'"] },
  { name: 'messageExpression', schema: cr({ properties: { n: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self % 2 == 0', message: 'fallback', messageExpression: "'n must be even, not ' + string(self)" }) } } }),
    obj: { spec: { n: 3 } }, want: ['spec.n: Invalid value: 3: n must be even, not 3'] },
  { name: 'a failing messageExpression falls back to message', schema: cr({ properties: { n: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self % 2 == 0', message: 'fallback', messageExpression: "'x' + self" }) } } }),
    obj: { spec: { n: 3 } }, want: ['spec.n: Invalid value: 3: fallback'] },
  { name: 'an empty messageExpression result falls back to the default', schema: cr({ properties: { n: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self == 0', messageExpression: "'  '" }) } } }),
    obj: { spec: { n: 3 } }, want: ['spec.n: Invalid value: 3: failed rule: self == 0'] },
  { name: 'reasons', schema: cr({ properties: {
    a: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'false', message: 'no a', reason: 'FieldValueForbidden' }) },
    b: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'false', message: 'need b', reason: 'FieldValueRequired' }) },
    c: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'false', message: 'dup', reason: 'FieldValueDuplicate' }) },
    d: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'false', message: 'bad', reason: 'FieldValueInvalid' }) } } }),
    obj: { spec: { a: 'x', b: 'y', c: 'z', d: 'w' } }, want: ['spec.a: Forbidden: no a', 'spec.b: Required value: need b', 'spec.c: Duplicate value: "z"', 'spec.d: Invalid value: "w": bad'] },
  { name: 'integer is int, number is double even when whole', schema: cr({ 'x-kubernetes-validations': rules('type(self.i) == int && type(self.d) == double && self.d == 2.0'), properties: { i: { type: 'integer' }, d: { type: 'number' } } }),
    obj: { spec: { i: 1, d: 2 } }, want: [] },
  { name: 'int-or-string is either', schema: cr({ properties: { p: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules("type(self) == int ? self > 0 : self.endsWith('%')") } } }),
    obj: { spec: { p: '50' } }, want: ['spec.p: Invalid value: "50": failed rule: type(self) == int ? self > 0 : self.endsWith(\'%\')'] },
  // int-or-string has no type, so Kubernetes shows "" as the value
  { name: 'a wrong overload on int-or-string is reported as Kubernetes does', schema: cr({ properties: { p: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules('self > 0') } } }),
    obj: { spec: { p: 'x' } }, want: ["spec.p: Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self > 0"] },
  { name: 'property names are escaped', schema: cr({ 'x-kubernetes-validations': rules('self.__namespace__ == self.a__dash__b && self.x__dot__y == 1'), properties: { namespace: { type: 'integer' }, 'a-b': { type: 'integer' }, 'x.y': { type: 'integer' } } }),
    obj: { spec: { namespace: 1, 'a-b': 1, 'x.y': 1 } }, want: [] },
  { name: 'rules on list items and map values are placed by index and key', schema: cr({ properties: {
    l: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self > 0', message: 'positive' }) } },
    m: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'self != ""', message: 'empty' }) } } } }),
    obj: { spec: { l: [1, -2], m: { k: '' } } }, want: ['spec.l[1]: Invalid value: -2: positive', 'spec.m[k]: Invalid value: "": empty'] },
  { name: 'preserve-unknown-fields: declared fields only', schema: cr({ 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'integer' } }, 'x-kubernetes-validations': rules('self.known == 1') }),
    obj: { spec: { known: 2, anything: { deep: 2 } } }, want: ['spec: Invalid value: failed rule: self.known == 1'] },
  { name: 'an embedded resource shows its own metadata name only', schema: cr({ properties: { tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-validations': rules("self.kind == 'Pod' && self.metadata.name == 'p' && !has(self.metadata.generateName)") } } }),
    obj: { spec: { tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n' } } } }, want: [] },
  { name: 'runtime errors', schema: cr({ properties: { m: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-validations': rules("self['missing'] == 'x'") } } }),
    obj: { spec: { m: {} } }, want: ['spec.m: Invalid value: "object": no such key: missing evaluating rule: self[\'missing\'] == \'x\''] },
  { name: 'null values are not validated', schema: cr({ properties: { s: { type: 'string', nullable: true, 'x-kubernetes-validations': rules('false') } } }),
    obj: { spec: { s: null } }, want: [] },
  { name: 'allOf rules apply at the same node', schema: cr({ properties: { n: { type: 'integer', allOf: [{ 'x-kubernetes-validations': rules({ rule: 'self < 5', message: 'lt5' }) }] } } }),
    obj: { spec: { n: 7 } }, want: ['spec.n: Invalid value: 7: lt5'] },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(validateCelRules(c.schema, c.obj, c.old).map(fieldErrorMessage), c.want);
  });
}

const immutable = cr({ properties: { name: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'self == oldSelf', message: 'is immutable' }) } } });

test('transition rules run only on update, with the old value at the same path', () => {
  assert.deepEqual(validateCelRules(immutable, { spec: { name: 'a' } }), []);
  assert.deepEqual(validateCelRules(immutable, { spec: { name: 'b' } }, { spec: { name: 'a' } }).map(fieldErrorMessage), ['spec.name: Invalid value: "b": is immutable']);
  assert.deepEqual(validateCelRules(immutable, { spec: { name: 'b' } }, { spec: {} }), [], 'no old value at the path');
});

test('map-list items correlate by their keys; other list items have no old value', () => {
  const item: RuleSchema = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } }, 'x-kubernetes-validations': rules({ rule: 'self.port >= oldSelf.port', message: 'port may only grow' }) };
  const mapList = cr({ properties: { ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item } } });
  const old = { spec: { ports: [{ name: 'a', port: 10 }, { name: 'b', port: 20 }] } };
  const next = { spec: { ports: [{ name: 'b', port: 15 }, { name: 'a', port: 11 }, { name: 'c', port: 1 }] } };
  assert.deepEqual(validateCelRules(mapList, next, old).map(fieldErrorMessage), ['spec.ports[0]: Invalid value: port may only grow']);
  const atomic = cr({ properties: { ports: { type: 'array', items: item } } });
  assert.deepEqual(validateCelRules(atomic, next, old), []);
});

test('an unchanged value ratchets: its errors become warnings, transition rules still apply', () => {
  const s = cr({ properties: { n: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self < 5', message: 'lt5' }) } } });
  const r = validateCelRulesDetailed(s, { spec: { n: 7 } }, { spec: { n: 7 } });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.warnings, ['spec.n: Invalid value: 7: lt5']);
  assert.equal(validateCelRules(s, { spec: { n: 8 } }, { spec: { n: 7 } }).length, 1);
});

test('causes carry the reason and field', () => {
  const [e] = validateCelRules(cr({ properties: { a: { type: 'string', 'x-kubernetes-validations': rules({ rule: 'false', message: 'no', reason: 'FieldValueForbidden' }) } } }), { spec: { a: 'x' } });
  assert.equal(e!.type, 'FieldValueForbidden');
  assert.equal(e!.field, 'spec.a');
});

test('evaluation errors are worded as cel-go words them', () => {
  const s = (rule: string): RuleSchema => cr({ properties: { l: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': rules(rule) } } });
  const one = (rule: string) => validateCelRules(s(rule), { spec: { l: [1] } }).map(fieldErrorMessage)[0];
  assert.equal(one('self[0] / 0 == 1'), 'spec.l: Invalid value: "array": division by zero evaluating rule: self[0] / 0 == 1');
  assert.equal(one('self[0] % 0 == 1'), 'spec.l: Invalid value: "array": modulus by zero evaluating rule: self[0] % 0 == 1');
  assert.equal(one('self[0] + 9223372036854775807 > 0'), 'spec.l: Invalid value: "array": integer overflow evaluating rule: self[0] + 9223372036854775807 > 0');
});

test('optionalOldSelf: the rule runs on create too, with oldSelf an optional', () => {
  const s = cr({ properties: { n: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'oldSelf.hasValue() ? self >= oldSelf.value() : self < 100', message: 'no', optionalOldSelf: true }) } } });
  assert.deepEqual(validateCelRules(s, { spec: { n: 150 } }).map(fieldErrorMessage), ['spec.n: Invalid value: 150: no']);
  assert.deepEqual(validateCelRules(s, { spec: { n: 50 } }), []);
  assert.deepEqual(validateCelRules(s, { spec: { n: 150 } }, { spec: { n: 120 } }), []);
  assert.deepEqual(validateCelRules(s, { spec: { n: 110 } }, { spec: { n: 120 } }).map(fieldErrorMessage), ['spec.n: Invalid value: 110: no']);
  const obj = cr({ properties: { m: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': rules({ rule: "oldSelf.orValue(self).a == 'x' || self.a == oldSelf.value().a", optionalOldSelf: true }) } } });
  assert.deepEqual(validateCelRules(obj, { spec: { m: { a: 'y' } } }, { spec: { m: { a: 'y' } } }), []);
  assert.equal(validateCelRules(obj, { spec: { m: { a: 'z' } } }, { spec: { m: { a: 'y' } } }).length, 1);
});

test('items of an atomic list ratchet when the whole list is unchanged', () => {
  const s = cr({ properties: { l: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': rules({ rule: 'self > 0', message: 'positive' }) } } } });
  const r = validateCelRulesDetailed(s, { spec: { l: [1, -2] } }, { spec: { l: [1, -2] } });
  assert.deepEqual([r.errors.length, r.warnings], [0, ['spec.l[1]: Invalid value: -2: positive']]);
  assert.deepEqual(validateCelRules(s, { spec: { l: [3, -2] } }, { spec: { l: [1, -2] } }).map(fieldErrorMessage), ['spec.l[1]: Invalid value: -2: positive']);
});

test('string formats: date-time and date are timestamps, duration a duration, byte bytes', () => {
  const s = cr({ 'x-kubernetes-validations': rules(
    "self.at > timestamp('2020-01-01T00:00:00Z') && self.at.getFullYear() == 2021",
    "self.day == timestamp('2021-03-04T00:00:00Z')",
    "self.wait == duration('90m') && self.short < duration('1s')",
    "self.raw == b'hi'",
  ), properties: { at: { type: 'string', format: 'date-time' }, day: { type: 'string', format: 'date' }, wait: { type: 'string', format: 'duration' }, short: { type: 'string', format: 'duration' }, raw: { type: 'string', format: 'byte' } } });
  assert.deepEqual(validateCelRules(s, { spec: { at: '2021-06-01T10:00:00Z', day: '2021-03-04', wait: '1h30m', short: '1.5ms', raw: 'aGk=' } }).map(fieldErrorMessage), []);
  assert.equal(validateCelRules(s, { spec: { at: '2019-06-01T10:00:00Z', day: '2021-03-04', wait: '1h', short: '2s', raw: 'aGk=' } }).length, 2);
});
