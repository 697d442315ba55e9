import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, type Admission } from '../../../../src/apiserver/flowcontrol/queueset.ts';
import { dealHand, flowHash } from '../../../../src/apiserver/flowcontrol/shuffle-shard.ts';

type Admitted = Extract<Admission, { admitted: true }>;

/** two flows whose hands of `hand` among `queues` share no queue */
function disjointFlows(queues: number, hand: number): [bigint, bigint] {
  const a = flowHash('fs', 'noisy');
  const handA = new Set(dealHand(a, queues, hand));
  for (let i = 0; ; i++) {
    const b = flowHash('fs', `quiet-${i}`);
    if (dealHand(b, queues, hand).every(q => !handA.has(q))) return [a, b];
  }
}

test('a flooding flow does not starve another: the quiet flow is served before the seats busy at its arrival turn over', async () => {
  let now = 0;
  const qs = new QueueSet({ queues: 8, handSize: 2, queueLengthLimit: 200 }, 4, () => now);
  const [noisy, quiet] = disjointFlows(8, 2);
  const running: { flow: string; a: Admitted }[] = [];
  const track = (flow: string, p: Promise<Admission>) => p.then(a => { if (a.admitted) running.push({ flow, a }); });
  // the noisy flow fills the seats and queues 150 more (which leave when the test ends)
  const end = new AbortController();
  for (let i = 0; i < 154; i++) void track('noisy', qs.start(1, noisy, 60_000, end.signal));
  await new Promise(r => setImmediate(r));
  assert.equal(running.length, 4);
  assert.deepEqual(qs.stats, { waiting: 150, executing: 4, seatsInUse: 4 });
  for (let round = 0; round < 20; round++) {
    const quietTurn = track('quiet', qs.start(1, quiet, 60_000));
    // noisy requests end one by one; the work of those still running is charged to their queue
    // only when they end (virtual time, as Kubernetes'), so the quiet request may let one or two
    // go first, but never more than the four that held the seats when it came
    let ended = 0;
    while (!running.some(r => r.flow === 'quiet')) {
      assert.ok(ended < 4, `round ${round}: the quiet request waits behind the flood`);
      now += 100;
      ended++;
      running.splice(running.findIndex(r => r.flow === 'noisy'), 1)[0]!.a.release();
      await new Promise(r => setImmediate(r));
    }
    await quietTurn;
    now += 50;
    running.splice(running.findIndex(r => r.flow === 'quiet'), 1)[0]!.a.release();
    await new Promise(r => setImmediate(r));
  }
  assert.ok(qs.stats.waiting > 100, 'the flood is still queued');
  end.abort();
});

test('two flooding flows share the seats evenly', async () => {
  let now = 0;
  const qs = new QueueSet({ queues: 8, handSize: 2, queueLengthLimit: 500 }, 2, () => now);
  const [a, b] = disjointFlows(8, 2);
  const running: { flow: string; adm: Admitted }[] = [];
  const served = { a: 0, b: 0 };
  const end = new AbortController();
  for (const [flow, hash] of [['a', a], ['b', b]] as const) {
    for (let i = 0; i < 200; i++) void qs.start(1, hash, 60_000, end.signal).then(adm => { if (adm.admitted) { served[flow]++; running.push({ flow, adm }); } });
  }
  for (let i = 0; i < 100; i++) {
    await new Promise(r => setImmediate(r));
    now += 10;
    running.shift()!.adm.release();
  }
  await new Promise(r => setImmediate(r));
  assert.ok(Math.abs(served.a - served.b) <= 2, `served a=${served.a} b=${served.b}`);
  end.abort();
});

test('a full queue rejects at once; a request waits no longer than its limit and leaves when its client does', async () => {
  const qs = new QueueSet({ queues: 1, handSize: 1, queueLengthLimit: 2 }, 1);
  const first = await qs.start(1, 0n, 1000);
  assert.ok(first.admitted);
  const second = qs.start(1, 0n, 30);
  const aborter = new AbortController();
  const third = qs.start(1, 0n, 10_000, aborter.signal);
  const fourth = await qs.start(1, 0n, 1000);
  assert.deepEqual(fourth, { admitted: false, reason: 'queue-full', waitedMs: 0 });
  const s = await second;
  assert.equal(s.admitted, false);
  assert.equal(!s.admitted && s.reason, 'time-out');
  assert.ok(s.waitedMs >= 25, `waited ${s.waitedMs} ms`);
  aborter.abort();
  const t = await third;
  assert.equal(!t.admitted && t.reason, 'cancelled');
  first.release();
  first.release(); // twice is once
  assert.deepEqual(qs.stats, { waiting: 0, executing: 0, seatsInUse: 0 });
});

test('a level without queues rejects when its seats are taken, and seats are counted by width', async () => {
  const qs = new QueueSet(undefined, 4);
  const wide = await qs.start(3, 0n, 1000);
  assert.ok(wide.admitted);
  assert.deepEqual(await qs.start(2, 0n, 1000), { admitted: false, reason: 'concurrency-limit', waitedMs: 0 });
  const narrow = await qs.start(1, 0n, 1000);
  assert.ok(narrow.admitted);
  assert.deepEqual(qs.stats, { waiting: 0, executing: 2, seatsInUse: 4 });
  wide.release();
  narrow.release();
  // wider than the whole level: runs alone once the level is idle
  const huge = await qs.start(10, 0n, 1000);
  assert.ok(huge.admitted);
  huge.release();
});

test('a wide request at the head of the line is not overtaken by narrow ones forever', async () => {
  const qs = new QueueSet({ queues: 2, handSize: 1, queueLengthLimit: 50 }, 4);
  const held: Admitted[] = [];
  for (let i = 0; i < 4; i++) { const a = await qs.start(1, 0n, 5000); assert.ok(a.admitted); held.push(a); }
  let wideIn = false;
  const wide = qs.start(4, 1n, 5000).then(a => { wideIn = a.admitted; return a; });
  held.shift()!.release();
  await new Promise(r => setImmediate(r));
  assert.equal(wideIn, false, 'one free seat is not enough');
  for (const h of held) h.release();
  const w = await wide;
  assert.ok(w.admitted);
  w.release();
});

/** a fake timer: what the queue set scheduled, run when the test moves the clock past it */
function fakeTimers() {
  let now = 0;
  const due: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    schedule: (fn: () => void, ms: number) => { due.push({ at: now + ms, fn }); },
    advance(ms: number) {
      now += ms;
      for (const d of due.filter(x => x.at <= now)) { due.splice(due.indexOf(d), 1); d.fn(); }
    },
    pending: () => due.length,
  };
}

test('a write\'s final seats are held for its additional latency after it returns, then given back', async () => {
  const clock = fakeTimers();
  const qs = new QueueSet({ queues: 4, handSize: 1, queueLengthLimit: 10 }, 4, clock.now, clock.schedule);
  let freed = 0;
  const write = await qs.start({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 }, 0n, 1000, undefined, () => { freed++; });
  assert.ok(write.admitted);
  assert.equal(write.seats, 3, 'the wider of the two stages is held from dispatch');
  assert.deepEqual(qs.stats, { waiting: 0, executing: 1, seatsInUse: 3 });
  const other = await qs.start(1, 1n, 1000);
  assert.ok(other.admitted);
  let thirdIn = false;
  const third = qs.start(1, 2n, 1000).then(a => { thirdIn = a.admitted; return a; });
  clock.advance(2);
  write.release();
  await new Promise(r => setImmediate(r));
  assert.deepEqual(qs.stats, { waiting: 1, executing: 1, seatsInUse: 4 }, 'no longer executing, its seats still held');
  assert.equal(thirdIn, false);
  assert.equal(freed, 0);
  clock.advance(4);
  assert.equal(freed, 0, 'not before 5 ms');
  clock.advance(1);
  assert.equal(freed, 1);
  const t = await third;
  assert.ok(t.admitted && thirdIn, 'the freed seats dispatch the waiting request');
  assert.deepEqual(qs.stats, { waiting: 0, executing: 2, seatsInUse: 2 });
  other.release();
  t.release();
  assert.deepEqual(qs.stats, { waiting: 0, executing: 0, seatsInUse: 0 });
  assert.equal(clock.pending(), 0, 'requests without final seats give theirs back at once');
});

test('final seats wider than the level become all its seats, held longer for the same work', async () => {
  const clock = fakeTimers();
  const qs = new QueueSet({ queues: 1, handSize: 1, queueLengthLimit: 10 }, 4, clock.now, clock.schedule);
  const a = await qs.start({ initialSeats: 1, finalSeats: 10, additionalLatencyMs: 5 }, 0n, 1000);
  assert.ok(a.admitted, 'wider than the level: runs once nothing else does');
  assert.equal(a.seats, 4);
  a.release();
  clock.advance(12);
  assert.equal(qs.stats.seatsInUse, 4, '50 seat-ms over 4 seats: 12.5 ms');
  clock.advance(1);
  assert.equal(qs.stats.seatsInUse, 0);
});

test('a queue is charged its writes\' final work: a flow of writes with watchers is served less often', async () => {
  let now = 0;
  const qs = new QueueSet({ queues: 8, handSize: 1, queueLengthLimit: 500 }, 1, () => now, (fn, ms) => { now += ms; fn(); });
  const [heavy, light] = disjointFlows(8, 1);
  const served = { heavy: 0, light: 0 };
  const end = new AbortController();
  const running: Admitted[] = [];
  const go = (flow: 'heavy' | 'light', hash: bigint, work: Parameters<QueueSet['start']>[0]) =>
    void qs.start(work, hash, 60_000, end.signal).then(a => { if (a.admitted) { served[flow]++; running.push(a); } });
  // every request takes the assumed 3 ms; a heavy write then holds its one seat 5 ms more for
  // its watchers, so it costs 8 seat-ms to the light flow's 3
  for (let i = 0; i < 200; i++) { go('heavy', heavy, { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 }); go('light', light, 1); }
  for (let i = 0; i < 110; i++) {
    await new Promise(r => setImmediate(r));
    now += 3;
    running.shift()!.release();
  }
  await new Promise(r => setImmediate(r));
  const ratio = served.light / served.heavy;
  assert.ok(ratio > 2 && ratio < 3.5, `served light=${served.light} heavy=${served.heavy}`);
  end.abort();
});
