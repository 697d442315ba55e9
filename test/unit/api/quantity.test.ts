// Quantities as numbers (for sums and ratios) and compared exactly (for equality, as QoS needs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareQuantities, parseQuantity } from '../../../src/api/quantity.ts';

test('values of decimal, binary and exponent suffixes', () => {
  assert.equal(parseQuantity('500m'), 0.5);
  assert.equal(parseQuantity('1Gi'), 2 ** 30);
  assert.equal(parseQuantity('2k'), 2000);
  assert.equal(parseQuantity('1e3'), 1000);
  assert.equal(parseQuantity(3), 3);
  assert.equal(parseQuantity('1x'), undefined);
  assert.equal(parseQuantity({}), undefined);
});

test('comparison is exact across notations', () => {
  for (let i = 1; i < 2000; i++) assert.equal(compareQuantities(`${i}m`, String(i / 1000)), 0, `${i}m`);
  assert.equal(compareQuantities('1Gi', '1024Mi'), 0);
  assert.equal(compareQuantities('1.5Gi', '1536Mi'), 0);
  assert.equal(compareQuantities('1e-3', '1m'), 0);
  assert.equal(compareQuantities('.5', '500m'), 0);
  assert.equal(compareQuantities(2, '2000m'), 0);
  assert.equal(compareQuantities('999m', '1'), -1);
  assert.equal(compareQuantities('1001m', '1'), 1);
  assert.equal(compareQuantities('-1', '0'), -1);
  assert.equal(compareQuantities('1Ki', '1k'), 1);
  assert.equal(compareQuantities('1x', '1'), undefined);
});
