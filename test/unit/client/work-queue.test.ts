import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkQueue } from '../../../src/client/work-queue.ts';
import { until } from './fake-api-server.ts';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

test('a key waits once however often it is added, and is never processed twice at once', async () => {
  const runs: string[] = [];
  let active = 0;
  let maxActiveA = 0;
  const q = createWorkQueue(async key => {
    if (key === 'a') { active++; maxActiveA = Math.max(maxActiveA, active); }
    runs.push(key);
    await sleep(20);
    if (key === 'a') active--;
  }, { concurrency: 4 });
  for (let i = 0; i < 5; i++) q.add('a');
  q.add('b');
  await sleep(5); // a is being processed now
  for (let i = 0; i < 5; i++) q.add('a');
  await q.idle();
  assert.deepEqual(runs.filter(k => k === 'a').length, 2, 'once queued, once more for the adds during processing');
  assert.equal(maxActiveA, 1);
  assert.ok(runs.includes('b'));
  q.shutdown();
});

test('failures retry with growing delays until success; requeueAfterMs asks for another look', async () => {
  const times: number[] = [];
  let lookAgain = 1;
  const q = createWorkQueue(async () => {
    times.push(Date.now());
    if (times.length <= 3) throw new Error('not yet');
    if (lookAgain-- > 0) return { requeueAfterMs: 30 };
  }, { baseDelayMs: 20 });
  q.add('k');
  await until(() => times.length === 5, 3000, 'five runs');
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  assert.ok(gaps[0]! >= 15 && gaps[1]! >= 35 && gaps[2]! >= 75, `backoff doubles: ${gaps.join(',')}`);
  // the next failure back-off would be 160 ms; a loaded machine may add tens of ms to the 30
  assert.ok(gaps[3]! >= 25 && gaps[3]! < 150, `requeue after 30ms, not the failure backoff: ${gaps[3]}`);
  await q.idle();
  assert.equal(times.length, 5);
  q.shutdown();
});

test('shutdown drops pending and delayed work', async () => {
  let runs = 0;
  const q = createWorkQueue(async () => { runs++; }, {});
  q.addAfter('x', 20);
  q.shutdown();
  q.add('y');
  await sleep(40);
  assert.equal(runs, 0);
});
