// The present state of one resource prefix: a map for point reads and a sorted key array for
// ranges. Keys sort by namespace first, so every namespace is one contiguous run found by two
// binary searches — that run is the namespace index; no second structure has to be kept in step.

import type { KeyValue } from '../interface.ts';

/** first index in sorted `keys` whose key is >= `key` */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

export class StoreIndex {
  private byKey = new Map<string, KeyValue>();
  private keys: string[] = [];

  /** starts from a range result, which is already sorted by key */
  static fromSorted(kvs: readonly KeyValue[]): StoreIndex {
    const idx = new StoreIndex();
    for (const kv of kvs) {
      idx.byKey.set(kv.key, kv);
      idx.keys.push(kv.key);
    }
    return idx;
  }

  get size(): number { return this.keys.length; }

  get(key: string): KeyValue | undefined { return this.byKey.get(key); }

  put(kv: KeyValue): void {
    if (!this.byKey.has(kv.key)) this.keys.splice(lowerBound(this.keys, kv.key), 0, kv.key);
    this.byKey.set(kv.key, kv);
  }

  remove(key: string): void {
    if (!this.byKey.delete(key)) return;
    const at = lowerBound(this.keys, key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }

  /** index bounds of [start, end) in the sorted keys */
  bounds(start: string, end: string): { lo: number; hi: number } {
    const lo = lowerBound(this.keys, start);
    const hi = Math.max(lo, lowerBound(this.keys, end));
    return { lo, hi };
  }

  keyAt(i: number): string { return this.keys[i]!; }

  valueAt(i: number): KeyValue { return this.byKey.get(this.keys[i]!)!; }

  /** the newest state of [start, end), as the backend would answer it */
  range(start: string, end: string, limit: number): { kvs: KeyValue[]; more: boolean; count: number } {
    const { lo, hi } = this.bounds(start, end);
    const count = hi - lo;
    const stop = limit > 0 ? Math.min(hi, lo + limit) : hi;
    const kvs = new Array<KeyValue>(stop - lo);
    for (let i = lo; i < stop; i++) kvs[i - lo] = this.byKey.get(this.keys[i]!)!;
    return { kvs, more: stop < hi, count };
  }
}
