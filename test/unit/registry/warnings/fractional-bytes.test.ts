// Which byte quantities Kubernetes calls fractional (src/registry/warnings/fractional-bytes.ts):
// its value in thousandths, rounded up as Quantity.MilliValue rounds, not a whole number.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFractionalBytes } from '../../../../src/registry/warnings/fractional-bytes.ts';

test('fractional byte quantities', () => {
  for (const q of ['100m', '0.5', '1.5', '1.0001', '1.0000001', '1500u', '-0.5']) assert.equal(isFractionalBytes(q), true, q);
  for (const q of ['1', '1Gi', '1.5Ki', '2000m', '1e3', '0', 128, '999.9999999', 'nonsense']) assert.equal(isFractionalBytes(q), false, String(q));
});
