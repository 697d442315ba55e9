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
  /** the values in key order, beside the keys: a range copies them without a lookup each */
  private values: KeyValue[] = [];

  /** starts from a range result, which is already sorted by key */
  static fromSorted(kvs: readonly KeyValue[]): StoreIndex {
    const idx = new StoreIndex();
    for (const kv of kvs) {
      idx.byKey.set(kv.key, kv);
      idx.keys.push(kv.key);
      idx.values.push(kv);
    }
    return idx;
  }

  get size(): number { return this.keys.length; }

  get(key: string): KeyValue | undefined { return this.byKey.get(key); }

  put(kv: KeyValue): void {
    const at = lowerBound(this.keys, kv.key);
    if (this.byKey.has(kv.key)) {
      this.values[at] = kv;
    } else {
      this.keys.splice(at, 0, kv.key);
      this.values.splice(at, 0, kv);
    }
    this.byKey.set(kv.key, kv);
  }

  remove(key: string): void {
    if (!this.byKey.delete(key)) return;
    const at = lowerBound(this.keys, key);
    if (this.keys[at] === key) {
      this.keys.splice(at, 1);
      this.values.splice(at, 1);
    }
  }

  /** index bounds of [start, end) in the sorted keys */
  bounds(start: string, end: string): { lo: number; hi: number } {
    const lo = lowerBound(this.keys, start);
    const hi = Math.max(lo, lowerBound(this.keys, end));
    return { lo, hi };
  }

  keyAt(i: number): string { return this.keys[i]!; }

  valueAt(i: number): KeyValue { return this.values[i]!; }

  /** the newest state of [start, end), as the backend would answer it */
  range(start: string, end: string, limit: number): { kvs: KeyValue[]; more: boolean; count: number } {
    const { lo, hi } = this.bounds(start, end);
    const count = hi - lo;
    const stop = limit > 0 ? Math.min(hi, lo + limit) : hi;
    return { kvs: this.values.slice(lo, stop), more: stop < hi, count };
  }
}
