// The CRD write's static cost limits: a rule's estimate times how often it can run against
// StaticEstimatedCostLimit, and the whole schema's total against StaticEstimatedCRDCostLimit,
// with Kubernetes' factors and messages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../../src/api/status.ts';
import { compileCelRules } from '../../../../../src/schema/cel/crd-rules/check.ts';
import { costExceedsMessage } from '../../../../../src/schema/cel/crd-rules/cost-limits.ts';
import type { RuleSchema } from '../../../../../src/schema/cel/crd-rules/schema.ts';

const at = 'spec.versions[0].schema.openAPIV3Schema';
const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
// `self > 0` on an integer is estimated at 2 (the identifier and the call)
const ints = (maxItems?: number): RuleSchema => ({ type: 'array', ...(maxItems !== undefined ? { maxItems } : {}), items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } });
const errors = (properties: Record<string, RuleSchema>) => compileCelRules({ type: 'object', properties }, at).map(fieldErrorMessage);

test('the factor is printed as Go prints it: %f under 1.5, %.1f above, "more than 100x" past 100', () => {
  assert.equal(costExceedsMessage('estimated rule cost', 10_000_002, 10_000_000), `estimated rule cost exceeds budget by factor of 1.000000x ${hint}`);
  assert.equal(costExceedsMessage('estimated rule cost', 16_000_000, 10_000_000), `estimated rule cost exceeds budget by factor of 1.6x ${hint}`);
  assert.equal(costExceedsMessage('estimated rule cost', 1e12, 10_000_000), `estimated rule cost exceeds budget by factor of more than 100x ${hint}`);
});

test('a rule runs once per item: maxItems multiplies its cost', () => {
  const p = `${at}.properties[l].items.x-kubernetes-validations[0].rule`;
  assert.deepEqual(errors({ l: ints(5_000_000) }), [], 'exactly at the limit');
  assert.deepEqual(errors({ l: ints(5_000_001) }), [`${p}: Forbidden: estimated rule cost exceeds budget by factor of 1.000000x ${hint}`]);
  assert.deepEqual(errors({ l: ints(8_000_000) }), [`${p}: Forbidden: estimated rule cost exceeds budget by factor of 1.6x ${hint}`]);
  // nested lists multiply; an unbounded list counts what fits in a request (3 MiB / 2 bytes an integer)
  const nested: RuleSchema = { type: 'array', maxItems: 8000, items: ints(1000) };
  assert.match(errors({ n: nested })[0]!, /items\.items\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of 1\.6x/);
  assert.deepEqual(errors({ l: ints() }), []);
});

test('an unbounded string is priced as the largest request: maxLength brings it within budget', () => {
  const strings = (maxLength?: number): RuleSchema => ({ type: 'array', maxItems: 100, items: { type: 'string', ...(maxLength ? { maxLength } : {}), 'x-kubernetes-validations': [{ rule: "self.contains('x')" }] } });
  assert.deepEqual(errors({ s: strings() }), [
    `${at}.properties[s].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 3.1x ${hint}`,
  ]);
  assert.deepEqual(errors({ s: strings(1000) }), []);
});

test('rules together over the schema limit: the four most expensive are named, then the total', () => {
  const properties: Record<string, RuleSchema> = {};
  // eleven rules of 9.5M each: none over its own limit, 104.5M together
  for (let i = 0; i < 11; i++) properties[`l${i}`] = ints(4_750_000);
  properties['small'] = ints(10);
  const errs = errors(properties);
  assert.deepEqual(errs, [
    ...[0, 1, 2, 3].map(i => `${at}.properties[l${i}].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`),
    `${at}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.045000x ${hint}`,
  ]);
});
