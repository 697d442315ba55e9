// The cache of one resource prefix: its present state, its recent events and its watchers.
// Everything here is synchronous, so applying an event, recording it and queueing it for
// watchers happen as one step that nothing can interleave with.

import type { IndexHint, KeyValue, WatchEvent } from '../interface.ts';
import { EventBuffer } from './event-buffer.ts';
import type { CacheWatcher, FanOut } from './fan-out.ts';
import { rangeAt, type SnapshotRange } from './snapshots.ts';
import { StoreIndex } from './store-index.ts';
import { FieldIndex, type IndexFunc } from './field-index.ts';
import { ValuePacker } from './value-packer.ts';

export interface PrefixCacheLimits {
  /** at most this many recent events are kept */
  maxEvents: number;
  /** events older than this many milliseconds are dropped */
  windowMs: number;
  now: () => number;
}

export class PrefixCache {
  readonly prefix: string;
  /** the revision the initial list was read at */
  readonly startRevision: number;
  readonly index: StoreIndex;
  readonly buffer: EventBuffer;
  readonly watchers = new Set<CacheWatcher>();
  readonly indexes = new Map<string, FieldIndex>();
  /** watchers that named an index this cache keeps, by index name and value */
  private indexedWatchers = new Map<string, Map<string, Set<CacheWatcher>>>();
  /** the other watchers: offered every event */
  private plainWatchers = new Set<CacheWatcher>();
  private limits: PrefixCacheLimits;
  private fanOut: FanOut;
  /** the backend's compacted revision as last seen; history below it is not answered */
  private compacted = 0;
  /** what the cache holds of a value: the same bytes, packed against similar values */
  private packer = new ValuePacker();

  constructor(prefix: string, kvs: readonly KeyValue[], startRevision: number, limits: PrefixCacheLimits, fanOut: FanOut, indexers?: Record<string, IndexFunc>) {
    this.prefix = prefix;
    this.startRevision = startRevision;
    this.index = StoreIndex.fromSorted(kvs.map(kv => this.packer.pack(kv)));
    for (const [name, extract] of Object.entries(indexers ?? {})) {
      const idx = new FieldIndex(name, extract);
      for (const kv of kvs) idx.put(kv);
      this.indexes.set(name, idx);
      this.indexedWatchers.set(name, new Map());
    }
    this.buffer = new EventBuffer(startRevision);
    this.limits = limits;
    this.fanOut = fanOut;
  }

  /** the oldest revision reads and watch resumption can be served from here */
  get floor(): number { return this.buffer.floor; }

  apply(ev: WatchEvent): void {
    const key = ev.kv.key;
    const revision = ev.kv.modRevision;
    const before = this.index.get(key);
    // the event, its history entry and the present state share one packed copy of the value
    const kv = ev.type === 'put' ? this.packer.pack(ev.kv) : ev.kv;
    if (ev.type === 'put') this.index.put(kv); else this.index.remove(key);
    const out: WatchEvent = before ? { type: ev.type, kv, prevKv: before } : { type: ev.type, kv };
    this.buffer.push({ revision, at: this.limits.now(), event: out, before });
    for (const w of this.plainWatchers) if (w.wants(key, revision)) this.fanOut.events(w, [out]);
    for (const [name, idx] of this.indexes) {
      // watchers of the value the key had and of the value it has now (a pod bound to a node
      // leaves the unassigned watchers and joins its node's)
      const was = idx.current(key);
      if (ev.type === 'put') idx.put(ev.kv); else idx.remove(key);
      const now = idx.current(key);
      const byValue = this.indexedWatchers.get(name)!;
      for (const value of was === now || now === undefined ? [was] : was === undefined ? [now] : [was, now]) {
        if (value === undefined) continue;
        for (const w of byValue.get(value) ?? []) if (w.wants(key, revision)) this.fanOut.events(w, [out]);
      }
    }
    this.trim();
  }

  /** drops history past the bounds; called on writes and before history is used */
  trim(compacted?: number): void {
    if (compacted !== undefined) this.compacted = Math.max(this.compacted, compacted);
    this.buffer.trim(this.limits.now(), this.limits.maxEvents, this.limits.windowMs, this.compacted);
  }

  /** the newest state of [start, end); with an index hint this cache keeps, only keys having that value */
  rangeNow(start: string, end: string, limit: number, hint?: IndexHint): SnapshotRange {
    const idx = hint && this.indexes.get(hint.name);
    if (!idx) return this.index.range(start, end, limit);
    const keys = idx.keysIn(hint.value, start, end);
    const stop = limit > 0 ? Math.min(keys.length, limit) : keys.length;
    const kvs = new Array<KeyValue>(stop);
    for (let i = 0; i < stop; i++) kvs[i] = this.index.get(keys[i]!)!;
    return { kvs, more: stop < keys.length, count: keys.length };
  }

  /** a read at a past revision; only for revision >= floor */
  rangeAt(start: string, end: string, revision: number, limit: number): SnapshotRange {
    return rangeAt(this.index, this.buffer, start, end, revision, limit);
  }

  /**
   * Starts a watcher: the held events after its revision first, then every live event. Done in
   * one synchronous step so no event can fall between the replay and the subscription.
   */
  attach(w: CacheWatcher): void {
    const hint = w.opts.index;
    const idx = hint && this.indexes.get(hint.name);
    const backlog: WatchEvent[] = [];
    for (const e of this.buffer.from(this.buffer.firstAfter(w.opts.afterRevision))) {
      if (!e.event.kv.key.startsWith(w.prefix)) continue;
      if (idx && idx.valueIn(e.event.kv) !== hint.value && !(e.event.prevKv && idx.valueIn(e.event.prevKv) === hint.value)) continue;
      backlog.push(e.event);
    }
    this.watchers.add(w);
    if (idx) {
      const byValue = this.indexedWatchers.get(hint.name)!;
      let set = byValue.get(hint.value);
      if (!set) byValue.set(hint.value, set = new Set());
      set.add(w);
      w.onClose = () => {
        this.watchers.delete(w);
        set.delete(w);
        if (set.size === 0 && byValue.get(hint.value) === set) byValue.delete(hint.value);
      };
    } else {
      this.plainWatchers.add(w);
      w.onClose = () => { this.watchers.delete(w); this.plainWatchers.delete(w); };
    }
    this.fanOut.events(w, backlog, true);
  }
}
