// The CRD's own validation of its rules: shape errors, compile errors in cel-go's text under the
// rule's path in the schema, and oldSelf only where old values correlate (cases as data).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { compileCelRules } from '../../../../../src/schema/cel/crd-rules/check.ts';
import type { RuleSchema, ValidationRule } from '../../../../../src/schema/cel/crd-rules/schema.ts';

const at = 'spec.versions[0].schema.openAPIV3Schema';
const spec = (rule: ValidationRule, extra: RuleSchema = {}): RuleSchema => ({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [rule], ...extra } } });
const p = `${at}.properties[spec].x-kubernetes-validations[0]`;
const goNil = (rule: string) => `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

const cases: Array<{ name: string; schema: RuleSchema; want: string[] }> = [
  { name: 'a good rule', schema: spec({ rule: 'self.a == "x"' }), want: [] },
  { name: 'undeclared reference', schema: spec({ rule: 'foo == 1' }),
    want: [`${p}.rule: Invalid value: ${goNil('foo == 1')}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^`] },
  { name: 'empty rule', schema: spec({ rule: '  ' }), want: [`${p}.rule: Required value: rule is not specified`] },
  { name: 'blank message', schema: spec({ rule: 'true', message: ' ' }), want: [`${p}.message: Invalid value: " ": must be non-empty if specified`] },
  { name: 'multi-line rule needs a message', schema: spec({ rule: 'true &&\ntrue' }), want: [`${p}.message: Required value: message must be specified if rule contains line breaks`] },
  { name: 'unknown reason', schema: spec({ rule: 'true', reason: 'Nope' }),
    want: [`${p}.reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`] },
  { name: 'bad fieldPath', schema: spec({ rule: 'true', fieldPath: '.b' }), want: [`${p}.fieldPath: Invalid value: ".b": must be a valid path`] },
  { name: 'good fieldPath', schema: spec({ rule: 'true', fieldPath: '.a' }), want: [] },
  { name: 'messageExpression compile error', schema: spec({ rule: 'true', messageExpression: 'bar' }),
    want: [`${p}.messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"bar", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'bar' (in container '')\n | bar\n | ^`] },
  { name: 'optionalOldSelf without oldSelf', schema: spec({ rule: 'true', optionalOldSelf: true }), want: [`${p}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`] },
  { name: 'oldSelf inside a list that is not a map list', schema: { type: 'object', properties: { l: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } },
    want: [`${at}.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[l]`] },
  { name: 'oldSelf inside a map list is fine', schema: { type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } },
    want: [] },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(compileCelRules(c.schema, at).map(fieldErrorMessage), c.want);
  });
}

test('a rule that does not compile is reported on every object it would run on', async () => {
  const { validateCelRules } = await import('../../../../../src/schema/cel/crd-rules/validate.ts');
  const [e] = validateCelRules(spec({ rule: 'foo' }), { spec: { a: 'x' } });
  assert.match(fieldErrorMessage(e!), /^spec: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo'/);
});

test('syntax errors are compile errors of the rule (the parser words them its own way)', () => {
  const [e] = compileCelRules(spec({ rule: 'self.a ==' }), at).map(fieldErrorMessage);
  assert.ok(e!.startsWith(`${p}.rule: Invalid value: ${goNil('self.a ==')}: compilation failed: ERROR: <input>:1:`), e);
});
