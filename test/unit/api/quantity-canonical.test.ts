// Quantities as Kubernetes writes them back: the canonical form of resource.Quantity.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalQuantity } from '../../../src/api/quantity.ts';

test('canonical quantities: largest whole unit of the input\'s suffix family', () => {
  const cases: Array<[string | number, string]> = [
    ['1000m', '1'], ['1500m', '1500m'], ['0.1', '100m'], ['1.5', '1500m'], ['.5', '500m'], ['5.', '5'], ['+1k', '1k'],
    ['1000', '1k'], ['1500', '1500'], ['2000000k', '2G'], ['1E', '1E'], ['1000E', '1000E'], ['0', '0'], ['0m', '0'], ['-1000m', '-1'],
    ['1024Mi', '1Gi'], ['1536Mi', '1536Mi'], ['1.5Gi', '1536Mi'], ['2Gi', '2Gi'], ['1Ki', '1Ki'], ['1023Ki', '1023Ki'],
    // binary values below 1024, or not whole, are written in decimal SI
    ['0.5Ki', '512'], ['512', '512'], ['1025', '1025'],
    // a decimal exponent stays one, in multiples of three
    ['1e3', '1e3'], ['12e6', '12e6'], ['1500e-3', '1500e-3'],
    // nothing finer than nano: rounded up
    ['1n', '1n'], ['0.1n', '1n'], ['100u', '100u'],
    [1, '1'], [0.5, '500m'],
  ];
  for (const [input, want] of cases) assert.equal(canonicalQuantity(input), want, String(input));
  assert.equal(canonicalQuantity('1x'), undefined);
});
