// Heavy handlers take turns: one per event-loop iteration, round-robin between priority levels.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuTurn, turnsWaiting } from '../../../src/apiserver/cpu-turns.ts';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** resolves after the loop has gone round once more (a timer fires in the next timers phase) */
const nextIteration = () => new Promise(r => setTimeout(r, 0));

test('one turn per loop iteration: what the poll phase brings runs between two turns', async () => {
  const order: string[] = [];
  const turns = [1, 2, 3].map(i => cpuTurn('level').then(() => {
    order.push(`turn ${i}`);
    // work that arrives during a turn (here: a timer, due as an I/O callback would be) runs before the next
    setTimeout(() => order.push(`after turn ${i}`), 0);
    busy(3); // a heavy turn: past the timer's 1 ms
  }));
  assert.equal(turnsWaiting(), 3);
  await Promise.all(turns);
  await nextIteration();
  assert.deepEqual(order, ['turn 1', 'after turn 1', 'turn 2', 'after turn 2', 'turn 3', 'after turn 3']);
  assert.equal(turnsWaiting(), 0);
});

test('levels take turns round-robin; within a level first come, first served', async () => {
  const order: string[] = [];
  const take = (level: string, name: string) => cpuTurn(level).then(() => { order.push(name); });
  await Promise.all([take('flood', 'f1'), take('flood', 'f2'), take('flood', 'f3'), take('nodes', 'n1'), take('flood', 'f4'), take('nodes', 'n2'), take('', 'other')]);
  assert.deepEqual(order, ['f1', 'n1', 'other', 'f2', 'n2', 'f3', 'f4']);
});

test('a turn taken on an idle loop is granted within the iteration', async () => {
  let granted = false;
  const turn = cpuTurn().then(() => { granted = true; });
  assert.equal(granted, false, 'never synchronously: the caller always yields once');
  await new Promise(r => setImmediate(r));
  await turn;
  assert.equal(granted, true);
});
