// The pace of the APF controller's FlowSchema status writes: six per FlowSchema in any minute,
// held-back writes again in 30-75 s, failed passes again after a doubling backoff.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusPacing } from '../../../../src/apiserver/flowcontrol/status-pacing.ts';
import { createFlowClassifier } from '../../../../src/apiserver/flowcontrol/classifier.ts';
import { ensureFlowControlBootstrap } from '../../../../src/apiserver/flowcontrol/config-producer.ts';
import { desiredDangling } from '../../../../src/apiserver/flowcontrol/dangling.ts';
import { testRegistry } from '../../support/registry.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

function fakeTime() {
  let now = 0;
  const due: { at: number; fn: () => void; cancelled: boolean }[] = [];
  return {
    now: () => now,
    schedule: (fn: () => void, ms: number) => {
      const d = { at: now + ms, fn, cancelled: false };
      due.push(d);
      return () => { d.cancelled = true; };
    },
    /** when the pending timer fires, relative to now (undefined: none) */
    next: () => { const d = due.filter(x => !x.cancelled).sort((a, b) => a.at - b.at)[0]; return d && d.at - now; },
    advance(ms: number) {
      now += ms;
      for (const d of due.filter(x => !x.cancelled && x.at <= now)) { d.cancelled = true; d.fn(); }
    },
  };
}

test('six writes of one FlowSchema in a minute; the seventh waits, and comes back in 30 to 75 s', () => {
  const time = fakeTime();
  let resyncs = 0;
  const p = new StatusPacing(() => { resyncs++; }, { now: time.now, schedule: time.schedule, random: () => 0.5 });
  for (let i = 0; i < 6; i++) { assert.equal(p.mayWrite('a'), true, `write ${i + 1}`); time.advance(5_000); }
  assert.equal(p.mayWrite('a'), false, 'a seventh within the minute is held back');
  assert.equal(p.mayWrite('b'), true, 'another FlowSchema has its own count');
  p.passDone({ failed: false, heldBack: true });
  assert.equal(time.next(), 52_000, '30 s plus the random part (22 of 0..44 s)');
  time.advance(52_000);
  assert.equal(resyncs, 1);
  assert.equal(p.mayWrite('a'), true, 'the oldest writes have left the minute');
  const spread = new Set<number>();
  for (const r of [0, 0.999]) {
    const t = fakeTime();
    const q = new StatusPacing(() => {}, { now: t.now, schedule: t.schedule, random: () => r });
    q.passDone({ failed: false, heldBack: true });
    spread.add(t.next()!);
  }
  assert.deepEqual([...spread], [30_000, 74_000]);
});

test('a failing pass is tried again after 200 ms, doubling up to 8 h, and a clean pass starts over', () => {
  const time = fakeTime();
  let resyncs = 0;
  const p = new StatusPacing(() => { resyncs++; }, { now: time.now, schedule: time.schedule });
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    p.passDone({ failed: true, heldBack: false });
    delays.push(time.next()!);
    time.advance(time.next()!);
  }
  assert.deepEqual(delays.slice(0, 5), [200, 400, 800, 1600, 3200]);
  assert.equal(delays[19], 8 * 3600_000);
  assert.equal(resyncs, 20);
  p.passDone({ failed: false, heldBack: false });
  p.passDone({ failed: true, heldBack: false });
  assert.equal(time.next(), 200);
  // one retry pending at a time, the earliest
  p.passDone({ failed: false, heldBack: true });
  assert.equal(time.next(), 200);
  p.stop();
  assert.equal(time.next(), undefined);
});

test('a user who keeps flipping a Dangling condition gets it corrected six times a minute, then again after the pause', async t => {
  const reg = await testRegistry();
  await ensureFlowControlBootstrap({ registry: reg.store, catalog: reg.catalog });
  const time = fakeTime();
  const classifier = createFlowClassifier({ registry: reg.store, catalog: reg.catalog, pacing: { now: time.now, schedule: time.schedule, random: () => 0 } });
  t.after(async () => { classifier.stop(); await reg.close(); });
  const fsInfo = reg.info('flowcontrol.apiserver.k8s.io', 'flowschemas');
  await reg.store.create(fsInfo, undefined, { metadata: { name: 'fought' }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 9000, rules: [] } } as never);
  await classifier.synced;
  const reason = async () => ((await reg.store.get(fsInfo, undefined, 'fought')) as KubeObject & { status?: { conditions?: { type: string; reason: string }[] } }).status?.conditions?.find(c => c.type === 'Dangling')?.reason;
  const settle = async (want: string | undefined) => {
    for (let i = 0; i < 100 && (await reason()) !== want; i++) await new Promise(r => setTimeout(r, 10));
    return reason();
  };
  assert.equal(await settle('Found'), 'Found', 'the first write');
  const flip = () => reg.store.modify(fsInfo, undefined, 'fought', cur => ({ ...cur, status: { conditions: [{ ...desiredDangling('global-default', false), lastTransitionTime: '2020-01-01T00:00:00Z' }] } }), { subresource: 'status', manager: 'someone-else' });
  for (let i = 0; i < 5; i++) {
    await flip();
    assert.equal(await settle('Found'), 'Found', `correction ${i + 2}`);
  }
  await flip();
  await new Promise(r => setTimeout(r, 200));
  assert.equal(await reason(), 'NotFound', 'a seventh write within the minute is held back');
  assert.equal(time.next(), 30_000);
  time.advance(30_000);
  assert.equal(await settle('NotFound'), 'NotFound', 'the six writes are still within the minute');
  assert.equal(time.next(), 30_000, 'and the pass is put off again');
  time.advance(30_001);
  assert.equal(await settle('Found'), 'Found', 'once they left it, the condition is written back');
});
