// Rules type checked against the schema's declared types when the CRD is written, with cel-go's
// errors under the rule's path (cases as data: a rule on spec, and what the check says).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { compileCelRules } from '../../../../../src/schema/cel/crd-rules/check.ts';
import type { RuleSchema, ValidationRule } from '../../../../../src/schema/cel/crd-rules/schema.ts';

const at = 'spec.versions[0].schema.openAPIV3Schema';
const p = `${at}.properties[spec].x-kubernetes-validations[0]`;
const specSchema: RuleSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 63 },
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    size: { 'x-kubernetes-int-or-string': true },
    labels: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 63 } },
    items: { type: 'array', maxItems: 10, items: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, port: { type: 'integer' } } } },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } },
    when: { type: 'string', format: 'date-time' },
    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};
const spec = (rule: ValidationRule): RuleSchema => ({ type: 'object', properties: { spec: { ...specSchema, 'x-kubernetes-validations': [rule] } } });
const goRule = (r: ValidationRule) => `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule)}, Message:"", MessageExpression:${JSON.stringify(r.messageExpression ?? '')}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
const caret = (rule: string, col: number, msg: string) => `ERROR: <input>:1:${col}: ${msg}\n | ${rule}\n | ${'.'.repeat(col - 1)}^`;
const failed = (rule: string, col: number, msg: string) => `${p}.rule: Invalid value: ${goRule({ rule })}: compilation failed: ${caret(rule, col, msg)}`;

const good = [
  "self.name.startsWith('a') && self.replicas > 1 && self.ratio < 0.5",
  'self.replicas > 1.5 && self.ratio >= 1', // numbers compare across int and double
  "type(self.size) == int ? self.size > 0 : self.size.endsWith('%')", // int-or-string is dyn
  "self.labels.all(k, k.size() < 10 && self.labels[k] != '') && self.labels.app == 'x' && 'app' in self.labels",
  'self.items.map(i, i.port).all(p, p > 0) && self.items.filter(i, i.port > 1).size() <= 10',
  "self.items.exists_one(i, i.name == 'a') && self.tags.exists(t, t in ['x', 'y'])",
  "has(self.name) && !has(self.extra) && self.when < timestamp('2030-01-01T00:00:00Z')",
  "quantity('1Gi').isGreaterThan(quantity('1Mi')) && self.name.matches('^[a-z]+$') && self.tags.join(',').size() < 100",
  "size(self.tags) == self.tags.size() && self.name.lowerAscii().split('-').size() > 0 && sets.contains(self.tags, ['a'])",
  "self.replicas == oldSelf.replicas || self.name != oldSelf.name",
  "strings.quote(self.name) != '' && self.name.charAt(0) != 'x' && self.name.indexOf('a') < 10",
];

for (const rule of good) {
  test(`type checks: ${rule}`, () => assert.deepEqual(compileCelRules(spec({ rule }), at).map(fieldErrorMessage), []));
}

const bad: Array<[string, string[] | ((r: string) => string[])]> = [
  ['self.foo == 1', r => [failed(r, 5, "undefined field 'foo'")]],
  ['self.extra.anything == 1', r => [failed(r, 11, "undefined field 'anything'")]],
  ["self.name == 1", r => [failed(r, 11, "found no matching overload for '_==_' applied to '(string, int)'")]],
  ["self.replicas + 'x' == 'y'", r => [failed(r, 15, "found no matching overload for '_+_' applied to '(int, string)'")]],
  ['self.replicas.startsWith("a")', r => [failed(r, 25, "found no matching overload for 'startsWith' applied to 'int.(string)'")]],
  ['self.replicas.x == 1', r => [failed(r, 14, "type 'int' does not support field selection")]],
  ["self.items.all(i, i.nmae == 'a')", r => [failed(r, 20, "undefined field 'nmae'")]],
  ["self.items.map(i, i.name).exists(n, n == 1)", r => [failed(r, 39, "found no matching overload for '_==_' applied to '(string, int)'")]],
  ['self.replicas && true', r => [failed(r, 5, "expected type 'bool' but found 'int'")]],
  ["[1, 'a'].size() == 2", r => [failed(r, 5, "expected type 'int' but found 'string'")]],
  ['self.replicas.all(x, true)', r => [failed(r, 5, "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)")]],
  ['self.replicas', [`${p}.rule: Invalid value: ${goRule({ rule: 'self.replicas' })}: cel expression must evaluate to a bool`]],
  ['self.size', [`${p}.rule: Invalid value: ${goRule({ rule: 'self.size' })}: cel expression must evaluate to a bool`]],
];

for (const [rule, want] of bad) {
  test(`refused: ${rule}`, () => {
    const errs = compileCelRules(spec({ rule }), at).map(fieldErrorMessage);
    assert.deepEqual(errs, typeof want === 'function' ? want(rule) : want);
  });
}

test('messageExpression must be a string, and is type checked like the rule', () => {
  const notString = { rule: 'self.replicas > 0', messageExpression: 'self.replicas' };
  assert.deepEqual(compileCelRules(spec(notString), at).map(fieldErrorMessage), [`${p}.messageExpression: Invalid value: ${goRule(notString)}: messageExpression must evaluate to a string`]);
  const wrong = { rule: 'self.replicas > 0', messageExpression: "'too many: ' + self.replicas" };
  assert.deepEqual(compileCelRules(spec(wrong), at).map(fieldErrorMessage),
    [`${p}.messageExpression: Invalid value: ${goRule(wrong)}: messageExpression compilation failed: ${caret(wrong.messageExpression, 14, "found no matching overload for '_+_' applied to '(string, int)'")}`]);
  assert.deepEqual(compileCelRules(spec({ rule: 'self.replicas > 0', messageExpression: "'too many: %d'.format([self.replicas])" }), at), []);
  // string() makes a string of unknown size: concatenating it is estimated over any budget, as Kubernetes estimates it
  const concat = { rule: 'self.replicas > 0', messageExpression: "'too many: ' + string(self.replicas)" };
  assert.deepEqual(compileCelRules(spec(concat), at).map(fieldErrorMessage), [
    `${p}.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    `${p}.messageExpression: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${at}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
  ]);
});

test('the root sees apiVersion, kind, metadata.name and generateName; optionalOldSelf makes oldSelf optional', () => {
  const root = (rule: string, extra: Partial<ValidationRule> = {}): RuleSchema => ({ type: 'object', properties: { spec: specSchema }, 'x-kubernetes-validations': [{ rule, ...extra }] });
  assert.deepEqual(compileCelRules(root("self.kind == 'W' && self.metadata.name.size() < 10 && has(self.metadata.generateName) && self.spec.replicas > 0"), at), []);
  const [e] = compileCelRules(root("self.metadata.namespace == 'x'"), at).map(fieldErrorMessage);
  assert.match(e!, /undefined field 'namespace'/);
  assert.deepEqual(compileCelRules(root('!oldSelf.hasValue() || oldSelf.value().spec.replicas <= self.spec.replicas', { optionalOldSelf: true }), at), []);
  const [o] = compileCelRules(root('oldSelf.spec.replicas <= self.spec.replicas', { optionalOldSelf: true }), at).map(fieldErrorMessage);
  assert.match(o!, /type 'optional_type\(selfType0\)' does not support field selection/);
});
