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

test('jitter lengthens each delay by up to the fraction, after the cap, as wait.Jitter does', () => {
  const policy = { initialMs: 1000, maxMs: 30_000, jitter: 0.2 };
  assert.equal(backoffDelay(policy, 0, () => 0), 1000, 'never shorter than the delay');
  assert.equal(backoffDelay(policy, 0, () => 0.5), 1100);
  assert.equal(backoffDelay(policy, 0, () => 0.999999), 1199, 'below d·(1 + jitter), in whole milliseconds');
  assert.equal(backoffDelay(policy, 10, () => 0.5), 33_000, 'the cap holds before jitter, not after');
  const b = new Backoff(policy, () => 0.5);
  assert.deepEqual([b.next(), b.next(), b.next()], [1100, 2200, 4400]);
  // bounds with a seeded random over many draws: always within [d, d·(1 + jitter))
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const reflector = { initialMs: 800, maxMs: 30_000, jitter: 1 };
  for (let attempt = 0; attempt < 12; attempt++) {
    const d = Math.min(800 * 2 ** attempt, 30_000);
    for (let i = 0; i < 200; i++) {
      const x = backoffDelay(reflector, attempt, random);
      assert.ok(x >= d && x < 2 * d, `${x} outside [${d}, ${2 * d})`);
    }
  }
});

test('a zero initial delay stays zero; factor 1 is a constant delay', () => {
  assert.equal(backoffDelay({ initialMs: 0, maxMs: 1000 }, 2000), 0);
  assert.deepEqual([0, 1, 5].map(n => backoffDelay({ initialMs: 10, maxMs: 1000, factor: 1 }, n)), [10, 10, 10]);
  assert.equal(backoffDelay({ initialMs: 10, maxMs: 1000 }, 5000), 1000, 'past any float range: the cap');
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

/** a fake Clock (src/api/clock.ts's shape): timers fire as the test advances time */
function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    now: () => now,
    after(ms: number, fn: () => void) { const t = { at: now + ms, fn, live: true }; timers.push(t); return { cancel() { t.live = false; } }; },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter(t => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.live = false;
        now = due.at;
        due.fn();
      }
      now = until;
    },
  };
}

test('a retry loop on a fake clock: attempts at the backoff\'s times, the cap, and reset after a success', () => {
  const clock = fakeClock();
  const retry = new Backoff({ initialMs: 100, maxMs: 7000 });
  const attempts: number[] = [];
  let failUntil = 9;
  const attempt = () => {
    attempts.push(clock.now());
    if (attempts.length < failUntil) clock.after(retry.next(), attempt);
    else retry.reset();
  };
  attempt();
  clock.advance(60_000);
  assert.deepEqual(attempts, [0, 100, 300, 700, 1500, 3100, 6300, 12_700, 19_700], 'the eighth wait is the 7 s cap, not 12.8 s');
  failUntil = attempts.length + 2;
  clock.after(1000, attempt);
  clock.advance(60_000);
  assert.deepEqual(attempts.slice(9).map(t => t - 60_000), [1000, 1100], 'after a success the next failure waits the initial delay');
});

test('per key on a fake clock: a key quiet for forgetAfterMs starts over, measured on the injected clock', () => {
  const clock = fakeClock();
  const keys = new KeyedBackoff({ initialMs: 10_000, maxMs: 300_000 }, { now: clock.now, forgetAfterMs: 600_000 });
  const delays = Array.from({ length: 7 }, () => keys.next('ns/pod/c'));
  assert.deepEqual(delays, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  clock.advance(600_000);
  assert.equal(keys.current('ns/pod/c'), 300_000, 'exactly forgetAfterMs: still remembered');
  clock.advance(1);
  assert.equal(keys.next('ns/pod/c'), 10_000);
  const jittered = new KeyedBackoff({ initialMs: 100, maxMs: 1000, jitter: 0.5 }, { now: clock.now, random: () => 0.5 });
  assert.deepEqual([jittered.next('k'), jittered.next('k'), jittered.next('k'), jittered.next('k'), jittered.next('k')], [125, 250, 500, 1000, 1250]);
});
