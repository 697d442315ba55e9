// Reads at a recent past revision (ListFromCacheSnapshot). Rather than keeping a copy of the
// state per event, a snapshot is rebuilt on demand: the present state, with every key touched
// after the wanted revision rolled back to its value before the first such event. That costs
// one pass over the events newer than the revision, and nothing at all while nobody asks.

import type { KeyValue } from '../interface.ts';
import type { EventBuffer } from './event-buffer.ts';
import type { StoreIndex } from './store-index.ts';

export interface SnapshotRange { kvs: KeyValue[]; more: boolean; count: number }

/**
 * [start, end) as of `revision`; the caller has checked that the buffer still holds every
 * event after it (revision >= buffer.floor).
 */
export function rangeAt(index: StoreIndex, buffer: EventBuffer, start: string, end: string, revision: number, limit: number): SnapshotRange {
  // the value each touched key had at `revision` (null: it did not exist then)
  const rolledBack = new Map<string, KeyValue | null>();
  for (const e of buffer.from(buffer.firstAfter(revision))) {
    const key = e.event.kv.key;
    if (key < start || key >= end || rolledBack.has(key)) continue;
    rolledBack.set(key, e.before ?? null);
  }
  if (rolledBack.size === 0) return index.range(start, end, limit);

  const { lo, hi } = index.bounds(start, end);
  let count = hi - lo;
  for (const [key, then] of rolledBack) {
    const existsNow = index.get(key) !== undefined;
    count += (then ? 1 : 0) - (existsNow ? 1 : 0);
  }

  // merge the present keys with the rolled-back ones, both in key order
  const touched = [...rolledBack.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const want = limit > 0 ? limit : Infinity;
  const kvs: KeyValue[] = [];
  let i = lo;
  let j = 0;
  let more = false;
  while (i < hi || j < touched.length) {
    let kv: KeyValue | null;
    const present = i < hi ? index.keyAt(i) : undefined;
    const past = j < touched.length ? touched[j]! : undefined;
    if (past !== undefined && (present === undefined || past <= present)) {
      if (past === present) i++;
      kv = rolledBack.get(past)!;
      j++;
    } else {
      kv = index.valueAt(i++);
    }
    if (!kv) continue;
    if (kvs.length === want) { more = true; break; }
    kvs.push(kv);
  }
  return { kvs, more, count };
}
