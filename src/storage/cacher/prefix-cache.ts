// The cache of one resource prefix: its present state, its recent events and its watchers.
// Everything here is synchronous, so applying an event, recording it and queueing it for
// watchers happen as one step that nothing can interleave with.

import type { KeyValue, WatchEvent } from '../interface.ts';
import { EventBuffer } from './event-buffer.ts';
import type { CacheWatcher, FanOut } from './fan-out.ts';
import { rangeAt, type SnapshotRange } from './snapshots.ts';
import { StoreIndex } from './store-index.ts';

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
  private limits: PrefixCacheLimits;
  private fanOut: FanOut;
  /** the backend's compacted revision as last seen; history below it is not answered */
  private compacted = 0;

  constructor(prefix: string, kvs: readonly KeyValue[], startRevision: number, limits: PrefixCacheLimits, fanOut: FanOut) {
    this.prefix = prefix;
    this.startRevision = startRevision;
    this.index = StoreIndex.fromSorted(kvs);
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
    if (ev.type === 'put') this.index.put(ev.kv); else this.index.remove(key);
    // share the cache's own object as prevKv: same content, one copy in memory
    const out: WatchEvent = before ? { type: ev.type, kv: ev.kv, prevKv: before } : ev;
    this.buffer.push({ revision, at: this.limits.now(), event: out, before });
    for (const w of this.watchers) if (w.wants(key, revision)) this.fanOut.events(w, [out]);
    this.trim();
  }

  /** drops history past the bounds; called on writes and before history is used */
  trim(compacted?: number): void {
    if (compacted !== undefined) this.compacted = Math.max(this.compacted, compacted);
    this.buffer.trim(this.limits.now(), this.limits.maxEvents, this.limits.windowMs, this.compacted);
  }

  rangeNow(start: string, end: string, limit: number): SnapshotRange {
    return this.index.range(start, end, limit);
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
    const backlog: WatchEvent[] = [];
    for (const e of this.buffer.from(this.buffer.firstAfter(w.opts.afterRevision))) {
      if (e.event.kv.key.startsWith(w.prefix)) backlog.push(e.event);
    }
    this.watchers.add(w);
    w.onClose = () => this.watchers.delete(w);
    this.fanOut.events(w, backlog, true);
  }
}
