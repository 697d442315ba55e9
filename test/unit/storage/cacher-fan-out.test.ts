// When the watch cache's fan-out delivers: at once after a quiet spell and while passes are
// cheap, in batches spaced to keep passes to their share of the loop, never held longer than
// the longest interval. A fake clock and scheduler stand for time and the event loop; each
// watcher's callback advances the clock by what its write would cost.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CacheWatcher, FanOut } from '../../../src/storage/cacher/fan-out.ts';
import type { WatchEvent } from '../../../src/storage/interface.ts';

const P = '/registry/configmaps/';
let rev = 0;
const ev = (): WatchEvent => ({ type: 'put', kv: { key: `${P}ns/c${++rev}`, value: new Uint8Array(), modRevision: rev, createRevision: rev } });

/** a fan-out on a fake clock: `passes` lists when each pass ran and what each watcher got */
function rig(opts: { watchers: number; costPerWatcherMs: number; share?: number; maxIntervalMs?: number }) {
  let cost = opts.costPerWatcherMs;
  let busy = 0;
  let clock = 1000;
  const timers: Array<{ at: number; fn: () => void }> = [];
  const waits: number[] = [];
  const fan = new FanOut(10_000, {
    share: opts.share ?? 0.25,
    maxIntervalMs: opts.maxIntervalMs ?? 20,
    busyShare: 0.8,
    loopBusy: () => busy,
    now: () => clock,
    schedule: (fn, ms) => { waits.push(ms); timers.push({ at: clock + ms, fn }); },
  });
  const batches: Array<{ at: number; watcher: number; revisions: number[] }> = [];
  const watchers = Array.from({ length: opts.watchers }, (_, i) => new CacheWatcher(P, {
    afterRevision: 0,
    onEvents: evs => {
      batches.push({ at: clock, watcher: i, revisions: evs.map(e => e.kv.modRevision) });
      clock += cost;
    },
    onError: err => { throw err; },
  }));
  return {
    fan, watchers, batches, waits,
    get clock() { return clock; },
    set costPerWatcherMs(ms: number) { cost = ms; },
    /** the event loop's utilization from now on */
    set loopBusy(u: number) { busy = u; },
    /** time passes; a timer due by then fires (the pass's bookkeeping microtask included) */
    async advance(ms: number) {
      const until = clock + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        clock = Math.max(clock, next.at);
        next.fn();
        await Promise.resolve();
      }
      clock = Math.max(clock, until);
    },
    /** one event to every watcher, as the cache applies a committed write */
    write() {
      const e = ev();
      for (const w of watchers) fan.events(w, [e]);
      return e.kv.modRevision;
    },
  };
}

test('after a quiet spell an event goes out on the next turn, and events of one turn go out as one batch', async () => {
  const r = rig({ watchers: 3, costPerWatcherMs: 0.25 });
  const a = r.write(), b = r.write();
  assert.deepEqual(r.waits, [0], 'one pass scheduled, without waiting');
  await r.advance(0);
  assert.deepEqual(r.batches.map(x => x.revisions), [[a, b], [a, b], [a, b]]);
  await r.advance(1000);
  const c = r.write();
  assert.deepEqual(r.waits, [0, 0]);
  await r.advance(0);
  assert.deepEqual(r.batches.slice(3).map(x => x.revisions), [[c], [c], [c]]);
});

// costs are powers of two, so that the fake clock's sums are exact
test('cheap passes under a steady stream: every write goes out at once, one per pass', async () => {
  // 1,000 watchers at ~2 µs each: a ~2 ms pass, so passes may start ~8 ms apart; writes come every 10 ms
  const r = rig({ watchers: 1000, costPerWatcherMs: 2 ** -9 });
  const sent: Array<{ rev: number; at: number }> = [];
  for (let i = 0; i < 50; i++) {
    sent.push({ rev: r.write(), at: r.clock });
    await r.advance(10);
  }
  assert.ok(r.waits.every(w => w === 0), `passes waited: ${r.waits.filter(w => w > 0).join(', ')}`);
  const first = r.batches.filter(b => b.watcher === 0);
  assert.deepEqual(first.map(b => b.revisions), sent.map(s => [s.rev]));
  assert.deepEqual(first.map(b => b.at), sent.map(s => s.at), 'delivered in the turn after the write');
});

test('costly passes under a steady stream are spaced to keep them to their share of the loop, at most the longest interval apart', async () => {
  // 1,000 watchers at ~8 µs each: a 7.8 ms pass would have the next wait 23.4 ms, more than the 20 allowed
  const r = rig({ watchers: 1000, costPerWatcherMs: 2 ** -7 });
  for (let i = 0; i < 40; i++) {
    r.write();
    await r.advance(5);
  }
  await r.advance(100);
  const passes = r.batches.filter(b => b.watcher === 0);
  const gaps = passes.slice(1).map((p, i) => p.at - passes[i]!.at);
  assert.ok(gaps.every(g => g === 7.8125 + 20), `gaps between pass starts: ${gaps.join(', ')}`);
  assert.ok(passes.length < 40 / 3, `${passes.length} passes for 40 writes`);
  assert.deepEqual(passes.flatMap(p => p.revisions), Array.from({ length: 40 }, (_, i) => passes[0]!.revisions[0]! + i), 'every event once, in order');

  // a 2 ms pass under a half share: the next may start 2 ms after it ended, and a write meanwhile waits for that
  const s = rig({ watchers: 128, costPerWatcherMs: 2 ** -6, share: 0.5 });
  s.write();
  await s.advance(0);
  await s.advance(0.5);
  s.write();
  assert.deepEqual(s.waits, [0, 1.5]);
});

test('one slow pass among cheap ones (a GC, a busy CPU) delays the next by a fraction of it, not the longest interval', async () => {
  const r = rig({ watchers: 1, costPerWatcherMs: 1 });
  for (let i = 0; i < 5; i++) {
    r.write();
    await r.advance(10);
  }
  assert.equal(r.fan.intervalMs, 3, 'a 1 ms pass: 3 ms to the next at a quarter share');
  r.costPerWatcherMs = 9;
  r.write();
  await r.advance(30);
  // the smoothed cost moved a quarter of the way: 1 + (9 - 1) / 4 = 3 ms, so 9 ms to the next pass
  assert.equal(r.fan.intervalMs, 9);
  r.costPerWatcherMs = 1;
  for (let i = 0; i < 20; i++) {
    r.write();
    await r.advance(10);
  }
  assert.ok(r.fan.intervalMs < 3.1, `back to cheap passes: ${r.fan.intervalMs}`);
});

test('by default (share 1) every pass runs on the next turn, however costly the last', async () => {
  let clock = 0;
  const waits: number[] = [];
  const fan = new FanOut(10, { share: 1, maxIntervalMs: 0, now: () => clock, schedule: (fn, ms) => { waits.push(ms); fn(); } });
  const w = new CacheWatcher(P, { afterRevision: 0, onEvents: () => { clock += 50; }, onError: err => { throw err; } });
  for (let i = 0; i < 3; i++) {
    fan.events(w, [ev()]);
    await Promise.resolve();
  }
  assert.deepEqual(waits, [0, 0, 0]);
  assert.equal(fan.intervalMs, 0);
  assert.equal(new FanOut(10).intervalMs, 0);
});

test('a loop busy beyond its share (a storm of writes, in-process informers behind) holds cheap passes the longest interval apart', async () => {
  const r = rig({ watchers: 4, costPerWatcherMs: 0.25 });
  r.loopBusy = 0.95;
  for (let i = 0; i < 30; i++) {
    r.write();
    await r.advance(10);
  }
  // the first window (100 ms) still ran at once; from then on passes start 1 ms (the pass) + 20 ms apart
  assert.equal(r.fan.intervalMs, 20);
  const passes = r.batches.filter(b => b.watcher === 0);
  const late = passes.slice(-4);
  assert.deepEqual(late.slice(1).map((p, i) => p.at - late[i]!.at), [21, 21, 21]);
  assert.ok(late.every(p => p.revisions.length >= 2), 'later passes carry the writes that came meanwhile');
  // the loop calms down: at the end of the next window passes go back to their cost
  r.loopBusy = 0.3;
  await r.advance(200);
  r.write();
  await r.advance(0);
  assert.equal(r.fan.intervalMs, 3);
});
