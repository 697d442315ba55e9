// The verdict of a watch-consistency run, from its recorded history alone (history.ts):
// - every acknowledged write is still there (created and updated objects hold at least the
//   acknowledged counter, at the acknowledged resourceVersion when it is the newest; acknowledged
//   deletes stay gone);
// - each watcher saw every acknowledged change exactly once, in resourceVersion order, with the
//   content that was written, and no change nobody was told of unless the final list shows it
//   happened; a re-list after 410 excuses what falls in the gap it covers, as it does for client-go;
// - the state each watcher rebuilt from its list and events equals a final list.

import { rvNumber, type AckedWrite, type FinalList, type ObjectState, type Outcomes, type Violation, type WatcherLog } from './history.ts';

export interface Fence {
  /** the object written last, after the final list; a watcher that saw its write has seen everything before */
  name: string;
  resourceVersion: string;
}

const expectedType = { create: 'ADDED', update: 'MODIFIED' } as const;
const counterText = (c: number | undefined) => (c === undefined ? '' : ` (counter ${c})`);

/** acknowledged writes against the final list: lost writes and resurrected deletes */
export function checkAcknowledged(outcomes: Outcomes, final: FinalList, fence?: Fence): Violation[] {
  const out: Violation[] = [];
  const present = new Map(final.items.map(i => [i.name, i]));
  const newest = new Map<string, AckedWrite>();
  for (const w of outcomes.acked) {
    // the fence is written after the final list, which cannot show it
    if (w.resourceVersion === fence?.resourceVersion) continue;
    if ((newest.get(w.name)?.counter ?? -1) < w.counter) newest.set(w.name, w);
  }
  for (const [name, ack] of newest) {
    if (outcomes.ackedDeletes.has(name)) continue;
    const now = present.get(name);
    const was = `its ${ack.op} at ${ack.resourceVersion}${counterText(ack.counter)} was acknowledged`;
    if (!now) {
      if (outcomes.uncertain.get(name) !== 'delete') out.push({ kind: 'lost-write', message: `${name}: ${was}, and the final list does not have it` });
    } else if (now.counter !== undefined && now.counter < ack.counter) {
      out.push({ kind: 'lost-write', message: `${name}: ${was}, and the final list has it at ${now.resourceVersion}${counterText(now.counter)}` });
    } else if (now.counter === ack.counter && now.resourceVersion !== ack.resourceVersion) {
      out.push({ kind: 'lost-write', message: `${name}: ${was}, and the final list has that counter at ${now.resourceVersion}` });
    }
  }
  for (const name of outcomes.ackedDeletes) {
    const now = present.get(name);
    if (now) out.push({ kind: 'resurrected', message: `${name}: its delete was acknowledged, and the final list has it at ${now.resourceVersion}` });
  }
  return out;
}

/** one watcher's log against the writes and the final list */
export function checkWatcher(log: WatcherLog, outcomes: Outcomes, final: FinalList, fence?: Fence): Violation[] {
  const out: Violation[] = [];
  const add = (kind: Violation['kind'], message: string) => out.push({ kind, watcher: log.id, message });
  const byRv = new Map(outcomes.acked.map(w => [rvNumber(w.resourceVersion), w]));
  const finalByName = new Map(final.items.map(i => [i.name, i]));
  let state = new Map<string, ObjectState>();
  let start: bigint | undefined;
  let last: bigint | undefined;
  const gaps: Array<[bigint, bigint]> = [];
  const seen = new Map<bigint, number>();
  const deletions = new Map<string, number>();

  for (const e of log.entries) {
    const rv = rvNumber(e.resourceVersion);
    if (e.kind === 'list') {
      if (last === undefined) start = rv;
      else if (rv < last) add('order', `a re-list answered at ${rv}, older than ${last} already seen`);
      else gaps.push([last, rv]);
      state = new Map(e.items.map(i => [i.name, i]));
      if (last === undefined || rv > last) last = rv;
      continue;
    }
    if (last === undefined) { add('order', `a ${e.kind === 'bookmark' ? 'bookmark' : e.type} came before any list`); last = rv; }
    if (e.kind === 'bookmark') {
      if (rv < last) add('order', `a bookmark at ${rv} came after ${last} had been seen`);
      else last = rv;
      continue;
    }
    const what = `${e.type} ${e.name} at ${rv}${counterText(e.counter)}`;
    const times = (seen.get(rv) ?? 0) + 1;
    seen.set(rv, times);
    if (times > 1) add('duplicate', `${what} came ${times} times`);
    else if (rv <= last) add('order', `${what} came after ${last} had been seen`);
    if (rv > last) last = rv;
    if (e.type === 'DELETED') {
      deletions.set(e.name, (deletions.get(e.name) ?? 0) + 1);
      state.delete(e.name);
      const unsure = outcomes.uncertain.get(e.name) === 'delete';
      if (!outcomes.ackedDeletes.has(e.name) && !(unsure && !finalByName.has(e.name))) add('unacknowledged', `${what}: no delete of it was acknowledged${unsure ? ', and the final list has it' : ''}`);
      continue;
    }
    state.set(e.name, { name: e.name, resourceVersion: e.resourceVersion, counter: e.counter });
    const ack = byRv.get(rv);
    if (ack) {
      if (ack.name !== e.name || expectedType[ack.op] !== e.type || (e.counter !== undefined && e.counter !== ack.counter)) {
        add('content', `${what}, but the write acknowledged at ${rv} was the ${ack.op} of ${ack.name}${counterText(ack.counter)}`);
      }
      continue;
    }
    const unsure = outcomes.uncertain.get(e.name);
    const kept = finalByName.get(e.name);
    if (!unsure || unsure === 'delete' || !kept || rvNumber(kept.resourceVersion) < rv) {
      add('unacknowledged', `${what}: no write at ${rv} was acknowledged${unsure && unsure !== 'delete' ? ', and the final list does not show it' : ''}`);
    }
  }

  const fenceRv = fence ? rvNumber(fence.resourceVersion) : undefined;
  const caughtUp = last !== undefined && (fenceRv === undefined || last >= fenceRv);
  if (!caughtUp) add('not-caught-up', `the newest resourceVersion it saw is ${last ?? 'none'}, before the last write at ${fence?.resourceVersion}`);
  const excused = (rv: bigint) => (start !== undefined && rv <= start) || gaps.some(([lo, hi]) => rv > lo && rv <= hi) || (!caughtUp && (last === undefined || rv > last));
  for (const w of outcomes.acked) {
    const rv = rvNumber(w.resourceVersion);
    if (!seen.has(rv) && !excused(rv)) add('missed', `the ${w.op} of ${w.name} at ${rv}${counterText(w.counter)} was acknowledged, and no event for it came`);
  }
  for (const name of outcomes.ackedDeletes) {
    const n = deletions.get(name) ?? 0;
    if (n === 0 && caughtUp && gaps.length === 0) add('missed', `the delete of ${name} was acknowledged, and no DELETED event for it came`);
    if (n > 1) add('duplicate', `DELETED ${name} came ${n} times`);
  }
  if (caughtUp) {
    for (const item of final.items) {
      if (item.name === fence?.name) continue;
      const held = state.get(item.name);
      if (held?.resourceVersion !== item.resourceVersion) add('final-state', `${item.name}: the final list has it at ${item.resourceVersion}, the watcher's state ${held ? `at ${held.resourceVersion}` : 'does not have it'}`);
    }
    for (const [name, held] of state) {
      if (name !== fence?.name && !finalByName.has(name)) add('final-state', `${name}: the watcher's state has it at ${held.resourceVersion}, the final list does not`);
    }
  }
  return out;
}

/** every finding of a run: storage first, then each watcher's */
export function verdict(outcomes: Outcomes, logs: WatcherLog[], final: FinalList, fence?: Fence): Violation[] {
  return [...checkAcknowledged(outcomes, final, fence), ...logs.flatMap(l => checkWatcher(l, outcomes, final, fence))];
}
