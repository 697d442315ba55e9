// Secondary indexes of a cached prefix (pods by spec.nodeName): for each indexed field, the
// value each key has now and the keys having each value. Reads that name an indexed value
// visit only those keys, and watchers that name one are only offered events of those keys —
// with thousands of node agents each watching its own pods, that is the difference between
// one check per event and one per watcher per event.

import type { KeyValue } from '../interface.ts';
import { valueLength } from '../packed-value.ts';

/** reads the indexed field from a stored value; '' when absent */
export type IndexFunc = (value: Uint8Array) => string;

export class FieldIndex {
  readonly name: string;
  private extract: IndexFunc;
  private valueOf = new Map<string, string>();
  private keysOf = new Map<string, Set<string>>();

  constructor(name: string, extract: IndexFunc) {
    this.name = name;
    this.extract = extract;
  }

  /** the field's value in a stored value (not necessarily the one indexed now); undefined for a deletion's empty value */
  valueIn(kv: KeyValue): string | undefined {
    if (valueLength(kv) === 0) return undefined;
    try { return this.extract(kv.value); } catch { return ''; }
  }

  /** the value the key has now, or undefined when it does not exist */
  current(key: string): string | undefined { return this.valueOf.get(key); }

  put(kv: KeyValue): void {
    const value = this.valueIn(kv) ?? '';
    const old = this.valueOf.get(kv.key);
    if (old === value) return;
    if (old !== undefined) this.drop(kv.key, old);
    this.valueOf.set(kv.key, value);
    let keys = this.keysOf.get(value);
    if (!keys) this.keysOf.set(value, keys = new Set());
    keys.add(kv.key);
  }

  remove(key: string): void {
    const old = this.valueOf.get(key);
    if (old === undefined) return;
    this.valueOf.delete(key);
    this.drop(key, old);
  }

  private drop(key: string, value: string): void {
    const keys = this.keysOf.get(value);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOf.delete(value);
  }

  /** the keys in [start, end) whose field has `value`, in key order */
  keysIn(value: string, start: string, end: string): string[] {
    const keys = [...(this.keysOf.get(value) ?? [])].filter(k => k >= start && k < end);
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys;
  }
}

