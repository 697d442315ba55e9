// The watch-consistency verdict on synthetic histories: a clean one passes, and each kind of
// violation is found and described.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyOutcomes, type FinalList, type LogEntry, type Outcomes, type WatcherLog } from '../../../../src/cli/check-watch/history.ts';
import { checkAcknowledged, checkWatcher, verdict, type Fence } from '../../../../src/cli/check-watch/verdict.ts';

// a history: list at 10; create a@11, create b@12, update a@13 (counter 1), delete b@14; the
// final list at 14 holds a@13; the fence f, in the first list at 5, updated at 15
function history(): { outcomes: Outcomes; entries: LogEntry[]; final: FinalList; fence: Fence } {
  const outcomes = emptyOutcomes();
  outcomes.acked.push(
    { name: 'f', op: 'create', resourceVersion: '5', counter: 0 },
    { name: 'a', op: 'create', resourceVersion: '11', counter: 0 },
    { name: 'b', op: 'create', resourceVersion: '12', counter: 0 },
    { name: 'a', op: 'update', resourceVersion: '13', counter: 1 },
    { name: 'f', op: 'update', resourceVersion: '15', counter: 1 },
  );
  outcomes.ackedDeletes.add('b');
  const entries: LogEntry[] = [
    { kind: 'list', resourceVersion: '10', items: [{ name: 'f', resourceVersion: '5', counter: 0 }] },
    { kind: 'event', type: 'ADDED', name: 'a', resourceVersion: '11', counter: 0 },
    { kind: 'event', type: 'ADDED', name: 'b', resourceVersion: '12', counter: 0 },
    { kind: 'bookmark', resourceVersion: '12' },
    { kind: 'event', type: 'MODIFIED', name: 'a', resourceVersion: '13', counter: 1 },
    { kind: 'event', type: 'DELETED', name: 'b', resourceVersion: '14', counter: 0 },
    { kind: 'event', type: 'MODIFIED', name: 'f', resourceVersion: '15', counter: 1 },
  ];
  const final: FinalList = { resourceVersion: '14', items: [{ name: 'a', resourceVersion: '13', counter: 1 }, { name: 'f', resourceVersion: '5', counter: 0 }] };
  return { outcomes, entries, final, fence: { name: 'f', resourceVersion: '15' } };
}

const judge = (h: ReturnType<typeof history>, entries = h.entries) => verdict(h.outcomes, [{ id: 0, entries }], h.final, h.fence);
const kinds = (vs: Array<{ kind: string }>) => vs.map(v => v.kind);

test('a clean history passes, with several watchers', () => {
  const h = history();
  const logs: WatcherLog[] = [{ id: 0, entries: h.entries }, { id: 1, entries: structuredClone(h.entries) }];
  assert.deepEqual(verdict(h.outcomes, logs, h.final, h.fence), []);
});

test('a missed event, create, update or delete', () => {
  const h = history();
  assert.deepEqual(judge(h, h.entries.filter(e => e.resourceVersion !== '13')).map(v => [v.kind, v.message]), [
    ['missed', 'the update of a at 13 (counter 1) was acknowledged, and no event for it came'],
    ['final-state', 'a: the final list has it at 13, the watcher\'s state at 11'],
  ]);
  assert.deepEqual(kinds(judge(h, h.entries.filter(e => e.resourceVersion !== '14'))), ['missed', 'final-state']);
});

test('an event twice, and events out of order (a bookmark overtaking an event included)', () => {
  const h = history();
  const twice = [...h.entries.slice(0, 3), h.entries[2]!, ...h.entries.slice(3)];
  assert.deepEqual(judge(h, twice).map(v => v.message), ['ADDED b at 12 (counter 0) came 2 times']);
  const swapped = [h.entries[0]!, h.entries[2]!, h.entries[1]!, ...h.entries.slice(3)];
  assert.deepEqual(judge(h, swapped).map(v => [v.kind, v.message]), [['order', 'ADDED a at 11 (counter 0) came after 12 had been seen']]);
  const early = [h.entries[0]!, h.entries[1]!, { kind: 'bookmark' as const, resourceVersion: '13' }, ...h.entries.slice(2)];
  // 12 after the bookmark at 13, then the bookmark at 12, then 13 itself again
  assert.deepEqual(kinds(judge(h, early)), ['order', 'order', 'order']);
  assert.deepEqual(kinds(judge(h, [h.entries[0]!, { kind: 'bookmark', resourceVersion: '9' }, ...h.entries.slice(1)])), ['order']);
});

test('an event for a write nobody was told of, unless the final list shows it happened', () => {
  const h = history();
  const ghost: LogEntry = { kind: 'event', type: 'ADDED', name: 'ghost', resourceVersion: '14', counter: 0 };
  const withGhost = [...h.entries.slice(0, 5), ghost, ...h.entries.slice(6)];
  h.outcomes.ackedDeletes.delete('b');
  const found = judge(h, withGhost);
  assert.ok(found.some(v => v.kind === 'unacknowledged' && v.message === 'ADDED ghost at 14 (counter 0): no write at 14 was acknowledged'), JSON.stringify(found));
  // the write's outcome was unknown and the final list holds it: no violation for the event
  const h2 = history();
  h2.outcomes.ackedDeletes.delete('b');
  h2.outcomes.uncertain.set('b', 'delete');
  h2.outcomes.uncertain.set('c', 'create');
  h2.final.items.push({ name: 'c', resourceVersion: '16', counter: 0 });
  const c: LogEntry = { kind: 'event', type: 'ADDED', name: 'c', resourceVersion: '16', counter: 0 };
  assert.deepEqual(judge(h2, [...h2.entries, c]), []);
  // not in the final list: a write that was seen and then lost
  h2.final.items.pop();
  assert.deepEqual(kinds(judge(h2, [...h2.entries, c])), ['unacknowledged', 'final-state']);
});

test('an event whose content is not what was written at its resourceVersion', () => {
  const h = history();
  const entries = h.entries.map(e => (e.resourceVersion === '13' && e.kind === 'event' ? { ...e, counter: 7 } : e));
  assert.deepEqual(judge(h, entries).map(v => v.message), ['MODIFIED a at 13 (counter 7), but the write acknowledged at 13 was the update of a (counter 1)']);
  const wrongType = h.entries.map(e => (e.resourceVersion === '11' && e.kind === 'event' ? { ...e, type: 'MODIFIED' as const } : e));
  assert.deepEqual(kinds(judge(h, wrongType)), ['content']);
});

test('a watcher that never reached the last write is reported once, not as every later miss', () => {
  const h = history();
  assert.deepEqual(judge(h, h.entries.slice(0, 4)).map(v => [v.kind, v.message]), [['not-caught-up', 'the newest resourceVersion it saw is 12, before the last write at 15']]);
});

test('a re-list after 410 excuses the changes in the gap it covers, and resets the state', () => {
  const h = history();
  const relisted: LogEntry[] = [
    ...h.entries.slice(0, 2),
    { kind: 'list', resourceVersion: '14', items: [{ name: 'a', resourceVersion: '13', counter: 1 }, { name: 'f', resourceVersion: '5', counter: 0 }] },
    h.entries[6]!,
  ];
  assert.deepEqual(judge(h, relisted), []);
  // a re-list that goes back in time is not
  const back: LogEntry[] = [...h.entries.slice(0, 3), { kind: 'list', resourceVersion: '11', items: [] }, ...h.entries.slice(4)];
  assert.ok(kinds(judge(h, back)).includes('order'));
});

test('the final state a watcher rebuilt must equal the final list', () => {
  const h = history();
  h.final.items.push({ name: 'z', resourceVersion: '9' });
  assert.deepEqual(judge(h).map(v => v.message), ['z: the final list has it at 9, the watcher\'s state does not have it']);
});

test('acknowledged writes against the final list: lost, rolled back, resurrected; unknown outcomes allowed', () => {
  const h = history();
  assert.deepEqual(checkAcknowledged(h.outcomes, h.final, h.fence), []);
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [h.final.items[1]!] }, h.fence).map(v => [v.kind, v.message]),
    [['lost-write', 'a: its update at 13 (counter 1) was acknowledged, and the final list does not have it']]);
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [{ name: 'a', resourceVersion: '11', counter: 0 }, h.final.items[1]!] }, h.fence).map(v => v.message),
    ['a: its update at 13 (counter 1) was acknowledged, and the final list has it at 11 (counter 0)']);
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [{ name: 'a', resourceVersion: '20', counter: 1 }, h.final.items[1]!] }, h.fence).map(v => v.kind), ['lost-write']);
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [...h.final.items, { name: 'b', resourceVersion: '12', counter: 0 }] }, h.fence).map(v => [v.kind, v.message]),
    [['resurrected', 'b: its delete was acknowledged, and the final list has it at 12']]);
  // an update with an unknown outcome may have landed (a higher counter), a delete may have too
  h.outcomes.uncertain.set('a', 'delete');
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [h.final.items[1]!] }, h.fence), []);
  assert.deepEqual(checkAcknowledged(h.outcomes, { resourceVersion: '14', items: [{ name: 'a', resourceVersion: '16', counter: 2 }, h.final.items[1]!] }, h.fence), []);
});

test('a watcher alone, without a fence, and resourceVersions that are not numbers', () => {
  const h = history();
  const final = { resourceVersion: '15', items: [h.final.items[0]!, { name: 'f', resourceVersion: '15', counter: 1 }] };
  assert.deepEqual(checkWatcher({ id: 3, entries: h.entries }, h.outcomes, final), []);
  assert.throws(() => checkWatcher({ id: 3, entries: [{ kind: 'list', resourceVersion: 'abc', items: [] }] }, h.outcomes, h.final), /"abc" is not a decimal integer/);
});
