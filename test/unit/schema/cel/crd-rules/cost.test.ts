// Runtime cost of CRD rules: counted per call and per macro iteration, stopped at the per-call
// limit, and charged against one budget per object, with Kubernetes' messages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { validateCelRules, validateCelRulesDetailed } from '../../../../../src/schema/cel/crd-rules/validate.ts';
import type { RuleSchema } from '../../../../../src/schema/cel/crd-rules/schema.ts';

const list = (rule: string, extra: object = {}): RuleSchema => ({ type: 'object', properties: { l: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule, ...extra }] } } });
const ints = (n: number) => ({ l: Array.from({ length: n }, (_, i) => i) });

test('cost grows with the iterations a rule makes', () => {
  const small = validateCelRulesDetailed(list('self.all(x, x >= 0)'), ints(10)).cost;
  const large = validateCelRulesDetailed(list('self.all(x, x >= 0)'), ints(1000)).cost;
  assert.ok(small > 10 && small < 50, String(small));
  assert.ok(large > 100 * 10 && large < 100 * 50, String(large));
});

test('a rule over the per-call limit stops validation with cel-go\'s and Kubernetes\' words', () => {
  const rule = 'self.all(x, self.all(y, self.all(z, x + y + z >= 0)))';
  const errs = validateCelRules(list(rule), ints(120)).map(fieldErrorMessage);
  assert.deepEqual(errs, [`l: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`]);
  const named = validateCelRules(list(rule, { message: 'too slow' }), ints(120)).map(fieldErrorMessage);
  assert.match(named[0]!, /call cost exceeds limit for rule: too slow$/);
});

test('rules share one budget per object; once spent no further rules run', () => {
  const s: RuleSchema = { type: 'object', properties: {
    a: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0)' }] },
    b: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0)' }] } } };
  const l = Array.from({ length: 100 }, (_, i) => i);
  const full = validateCelRulesDetailed(s, { a: l, b: l });
  assert.deepEqual(full.errors, []);
  const r = validateCelRulesDetailed(s, { a: l, b: l }, undefined, Math.ceil(full.cost * 0.75));
  assert.deepEqual(r.errors.map(fieldErrorMessage), ['b: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run']);
});

test('a messageExpression over the limit ends validation', () => {
  const s = list('false', { messageExpression: "self.all(x, self.all(y, self.all(z, x + y + z >= 0))) ? 'a' : 'b'" });
  const [e] = validateCelRules(s, ints(120)).map(fieldErrorMessage);
  assert.match(e!, /^l: Invalid value: "array": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self\.all/);
});
