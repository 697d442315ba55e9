// The static cost estimate of CRD rules, against the figures Kubernetes' own estimator gives for
// the same schemas and rules (apiextensions-apiserver's TestCostEstimation): each case once
// without limits (sizes from the largest request) and once with maxItems/maxProperties/maxLength.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compiledRules } from '../../../../../src/schema/cel/crd-rules/compiled.ts';
import type { RuleSchema } from '../../../../../src/schema/cel/crd-rules/schema.ts';

type Gen = (max?: number) => RuleSchema;
const scalar = (t: string): RuleSchema => t === 'int-or-string' ? { 'x-kubernetes-int-or-string': true }
  : ['date', 'date-time', 'duration', 'byte'].includes(t) ? { type: 'string', format: t } : { type: t };
const withRule = (s: RuleSchema, rule: string): RuleSchema => ({ ...s, 'x-kubernetes-validations': [{ rule }] });
const array = (t: string, rule: string): Gen => max => withRule({ type: 'array', items: scalar(t), ...(max !== undefined ? { maxItems: max } : {}) }, rule);
const map = (t: string, rule: string): Gen => max => withRule({ type: 'object', additionalProperties: scalar(t), ...(max !== undefined ? { maxProperties: max } : {}) }, rule);
const string = (rule: string, format?: string): Gen => max => withRule({ type: 'string', ...(format ? { format } : {}), ...(max !== undefined ? { maxLength: max } : {}) }, rule);
const strings = (rule: string): Gen => max => withRule({ type: 'array', items: { type: 'string', ...(max !== undefined ? { maxLength: max } : {}) }, ...(max !== undefined ? { maxItems: max } : {}) }, rule);

// [name, schema, unbounded cost, max set, cost with it]
const cases: Array<[string, Gen, number, number, number]> = [
  ['number array with all', array('number', 'self.all(x, true)'), 4718591, 10, 32],
  ['string array with all', array('string', 'self.all(x, true)'), 3145727, 20, 62],
  ['boolean array with all', array('boolean', 'self.all(x, true)'), 1887437, 5, 17],
  ['map of numbers with all', map('number', 'self.all(x, true)'), 1348169, 10, 32],
  ['map of strings with all', map('string', 'self.all(x, true)'), 1179647, 3, 11],
  ['map of booleans with all', map('boolean', 'self.all(x, true)'), 943718, 100, 302],
  ['string with contains', string("self.contains('test')"), 314574, 10, 5],
  ['string with startsWith', string("self.startsWith('test')"), 2, 15, 2],
  ['concat string', string('size(self + "hello") > size("hello")'), 314578, 4, 7],
  ['index of array with numbers', array('number', 'self[1] == 0.0'), 2, 5000, 2],
  ['index of array with strings', array('string', 'self[1] == self[1]'), 314577, 8, 314577],
  ['O(n^2) loop with numbers', array('number', 'self.all(x, self.all(y, true))'), NaN, 10, 352],
  ['O(n^3) loop with numbers', array('number', 'self.all(x, self.all(y, self.all(z, true)))'), NaN, 10, 3552],
  ['regex matches simple', string('self.matches("x")'), 314574, 50, 22],
  ['regex matches empty string', string('"".matches("(((((((((())))))))))[0-9]")'), 7, 10, 7],
  ['regex matches empty regex', string('self.matches("")'), 1, 100, 1],
  ['set string maxLength to zero', string('self == "x"'), 2, 0, 1],
  ['set bytes maxLength to zero', string('self == b"x"', 'byte'), 2, 0, 1],
  ['set maxLength greater than estimated maxLength', array('number', 'self.all(x, x == 0.0)'), 6291454, 3 * 1024 * 2048, 25165826],
  ['int-or-string array with all', array('int-or-string', 'self.all(x, true)'), 4718591, 10, 32],
  ['index of array with int-or-strings', array('int-or-string', 'self[0] == 5'), 3, 10, 3],
  ['index of array with booleans', array('boolean', 'self[0] == false'), 2, 25, 2],
  ['duration array with all', array('duration', 'self.all(x, true)'), 2359295, 5, 17],
  ['index of duration array', array('duration', 'self[0].getHours() == 2'), 4, 525, 4],
  ['date array with all', array('date', 'self.all(x, true)'), 725936, 15, 47],
  ['index of date array', array('date', 'self[2].getDayOfMonth() == 13'), 4, 42, 4],
  ['date-time array with all', array('date-time', 'self.all(x, true)'), 428963, 25, 77],
  ['map of int-or-strings with all', map('int-or-string', 'self.all(x, true)'), 1348169, 15, 47],
  ['map of durations with all', map('duration', 'self.all(x, true)'), 1048577, 5, 17],
  ['map of dates with all', map('date', 'self.all(x, true)'), 524288, 10, 32],
  ['map of date-times with all', map('date-time', 'self.all(x, true)'), 349526, 25, 77],
  ['extended library regex find', string("self.find('[0-9]+') == ''"), 629147, 10, 11],
  ['extended library join', strings("self.join(' ') == 'aa bb'"), 329853068905, 10, 43],
  ['extended library isSorted', strings('self.isSorted() == true'), 329854432052, 10, 52],
];

const cost = (s: RuleSchema) => {
  const [c] = compiledRules(s);
  assert.equal(c!.error, undefined);
  return c!.maxCost;
};

for (const [name, gen, unbounded, max, bounded] of cases) {
  test(`estimate: ${name}`, () => {
    if (Number.isNaN(unbounded)) assert.ok(cost(gen()) > 10_000_000);
    else assert.equal(cost(gen()), unbounded, 'without limits');
    assert.equal(cost(gen(max)), bounded, `with ${max}`);
  });
}
