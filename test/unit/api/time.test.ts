// One formatter per Go time layout, fed by the caller's clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rfc3339, rfc3339Micro, rfc3339Nano } from '../../../src/api/time.ts';

test('Time to the second, MicroTime with six digits, RFC3339Nano without trailing zeros', () => {
  const ms = Date.parse('2026-11-25T04:05:06.780Z');
  assert.equal(rfc3339(ms), '2026-11-25T04:05:06Z');
  assert.equal(rfc3339(new Date(ms)), '2026-11-25T04:05:06Z');
  assert.equal(rfc3339Micro(ms), '2026-11-25T04:05:06.780000Z');
  assert.equal(rfc3339Nano(ms), '2026-11-25T04:05:06.78Z');
  assert.equal(rfc3339Nano(Date.parse('2026-11-25T04:05:06Z')), '2026-11-25T04:05:06Z');
});
