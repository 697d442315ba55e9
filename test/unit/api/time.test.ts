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

test('the formats take the clock\'s milliseconds or a Date alike, and agree with each other', () => {
  const clock = { now: () => Date.parse('2026-01-02T03:04:05.006Z') };
  assert.equal(rfc3339(clock.now()), '2026-01-02T03:04:05Z');
  assert.equal(rfc3339Micro(new Date(clock.now())), '2026-01-02T03:04:05.006000Z');
  assert.equal(rfc3339Nano(new Date(clock.now())), '2026-01-02T03:04:05.006Z');
  assert.equal(rfc3339(0), '1970-01-01T00:00:00Z');
  assert.equal(rfc3339Micro(0), '1970-01-01T00:00:00.000000Z');
  assert.equal(rfc3339Nano(0), '1970-01-01T00:00:00Z');
  assert.equal(rfc3339(-1500), '1969-12-31T23:59:58Z', 'before the epoch, truncated like Go\'s layout');
  assert.equal(rfc3339Nano(Date.parse('2026-01-02T03:04:05.100Z')), '2026-01-02T03:04:05.1Z');
  for (const ms of [0, 1, 999, 1000, 1_764_000_000_123]) {
    assert.equal(rfc3339Micro(ms).replace(/\.\d+Z$/, 'Z'), rfc3339(ms));
    assert.equal(Date.parse(rfc3339Micro(ms)), ms);
    assert.equal(Date.parse(rfc3339Nano(ms)), ms);
  }
});
