// One retry rule: exponential, capped, optionally jittered, on the caller's clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, KeyedBackoff, backoffDelay } from '../../../src/api/backoff.ts';

test('delays double from the initial one up to the cap; reset starts over', () => {
  const b = new Backoff({ initialMs: 200, maxMs: 7000 });
  assert.deepEqual(Array.from({ length: 8 }, () => b.next()), [200, 400, 800, 1600, 3200, 6400, 7000, 7000]);
  b.reset();
  assert.equal(b.next(), 200);
  assert.deepEqual([0, 1, 2].map(n => backoffDelay({ initialMs: 10, maxMs: 1000, factor: 3 }, n)), [10, 30, 90]);
});

test('jitter spreads each delay by the fraction either way, from the injected random', () => {
  const policy = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 };
  assert.equal(backoffDelay(policy, 0, () => 0), 800);
  assert.equal(backoffDelay(policy, 0, () => 0.5), 1000);
  assert.equal(backoffDelay(policy, 0, () => 1), 1200);
  const b = new Backoff(policy, () => 1);
  assert.deepEqual([b.next(), b.next(), b.next()], [1200, 2400, 4800]);
});

test('per key: failures lengthen one key only; forget and a quiet spell start it over', () => {
  let now = 0;
  const keys = new KeyedBackoff({ initialMs: 10_000, maxMs: 300_000 }, { now: () => now, forgetAfterMs: 600_000 });
  assert.equal(keys.current('a'), undefined);
  assert.deepEqual([keys.next('a'), keys.next('a'), keys.next('a')], [10_000, 20_000, 40_000]);
  assert.equal(keys.current('a'), 40_000);
  assert.equal(keys.next('b'), 10_000, 'another key is paced apart');
  keys.forget('b');
  assert.equal(keys.current('b'), undefined);
  now = 600_001;
  assert.equal(keys.current('a'), undefined, 'quiet for longer than forgetAfterMs: forgotten');
  assert.equal(keys.next('a'), 10_000);
  keys.next('pod/x');
  keys.next('pod/y');
  keys.forgetPrefix('pod/');
  assert.deepEqual([keys.current('pod/x'), keys.current('pod/y'), keys.current('a')], [undefined, undefined, 10_000]);
});
