// Kubernetes' CEL quantity library.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';

test('quantity() and isQuantity()', () => {
  assert.equal(evaluate("isQuantity('1.5Gi')"), true);
  assert.equal(evaluate("isQuantity('1e3')"), true);
  assert.equal(evaluate("isQuantity('1x')"), false);
  assert.equal(evaluate("isQuantity('')"), false);
  assert.deepEqual(evaluate("quantity('abc')"), { error: 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'' });
  assert.deepEqual(evaluate("quantity('1iK')"), { error: 'unable to parse quantity\'s suffix' });
});

test('comparisons are exact across notations', () => {
  assert.equal(evaluate("quantity('100m') == quantity('0.1')"), true);
  assert.equal(evaluate("quantity('1Gi').isGreaterThan(quantity('1000Mi'))"), true);
  assert.equal(evaluate("quantity('1Gi').isLessThan(quantity('1G'))"), false);
  assert.equal(evaluate("quantity('1Gi').compareTo(quantity('1024Mi'))"), 0);
  assert.equal(evaluate("quantity('1').compareTo(quantity('2'))"), -1);
  assert.equal(evaluate("quantity(object.spec.limit).isLessThan(quantity('2Gi'))", { object: { spec: { limit: '512Mi' } } }), true);
});

test('arithmetic and conversions', () => {
  assert.equal(evaluate("quantity('2k').add(5).asInteger()"), 2005);
  assert.equal(evaluate("quantity('1').add(quantity('500m')).asApproximateFloat()"), 1.5);
  assert.equal(evaluate("quantity('1').sub(quantity('1500m')).sign()"), -1);
  assert.equal(evaluate("quantity('3').sub(1).asInteger()"), 2);
  assert.equal(evaluate("quantity('1.5').isInteger()"), false);
  assert.equal(evaluate("quantity('1Ki').isInteger()"), true);
  assert.deepEqual(evaluate("quantity('1.5').asInteger()"), { error: 'cannot convert value to integer' });
  assert.deepEqual(evaluate("quantity('10E').asInteger()"), { error: 'cannot convert value to integer' });
});
