import { test } from 'node:test';
import assert from 'node:assert/strict';
import { terminationOrdering, terminationPrereqs } from '../../../../src/agent/pods/termination-order.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import type { Clock } from '../../../../src/api/clock.ts';

const pod: Pod = {
  metadata: { name: 'p', namespace: 'ns', uid: 'u' },
  spec: {
    initContainers: [{ name: 'side1', restartPolicy: 'Always' }, { name: 'once' }, { name: 'side2', restartPolicy: 'Always' }],
    containers: [{ name: 'a' }, { name: 'b' }],
  },
};

test('sidecars stop after every regular container, the last declared first; regular containers wait for nothing', () => {
  const p = terminationPrereqs(pod, ['side1', 'side2', 'a', 'b']);
  assert.deepEqual(p.get('side2'), ['a', 'b']);
  assert.deepEqual(p.get('side1'), ['a', 'b', 'side2']);
  assert.equal(p.get('a'), undefined);
  assert.equal(p.get('once'), undefined, 'an ordinary init container is not a sidecar');
  // what no longer runs is not waited for
  const q = terminationPrereqs(pod, ['side1', 'a']);
  assert.deepEqual(q.get('side1'), ['a']);
  assert.deepEqual(q.get('side2'), ['a']);
});

/** a clock whose timers fire only when the test says */
function manualClock() {
  const timers: Array<{ fn: () => void; cancelled: boolean }> = [];
  const clock: Pick<Clock, 'after'> = { after(_ms, fn) { const t = { fn, cancelled: false }; timers.push(t); return { cancel: () => { t.cancelled = true; } }; } };
  return { clock, fire: () => { for (const t of timers.splice(0)) if (!t.cancelled) t.fn(); }, pending: () => timers.filter(t => !t.cancelled).length };
}

test('a sidecar\'s turn comes when its prerequisites have stopped, or when the grace period runs out', async () => {
  const { clock, fire, pending } = manualClock();
  const o = terminationOrdering(terminationPrereqs(pod, ['side1', 'side2', 'a', 'b']), clock);
  const order: string[] = [];
  const s1 = o.waitForTurn('side1', 30_000).then(() => order.push('side1'));
  const s2 = o.waitForTurn('side2', 30_000).then(() => { order.push('side2'); o.terminated('side2'); });
  await o.waitForTurn('a', 30_000);
  o.terminated('a');
  await new Promise(r => setImmediate(r));
  assert.deepEqual(order, [], 'b still runs');
  o.terminated('b');
  await Promise.all([s1, s2]);
  assert.deepEqual(order, ['side2', 'side1']);
  assert.equal(pending(), 0, 'the deadline timers are cancelled');
  // a prerequisite that never stops holds a sidecar only until its deadline
  const stuck = terminationOrdering(terminationPrereqs(pod, ['side1', 'a']), clock);
  let went = false;
  const w = stuck.waitForTurn('side1', 5000).then(() => { went = true; });
  await new Promise(r => setImmediate(r));
  assert.equal(went, false);
  fire();
  await w;
  assert.equal(went, true);
});
