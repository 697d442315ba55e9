// The cache's one window onto the backend: a single watch over every key, which feeds the
// per-prefix caches and moves the revision clock. One stream for all prefixes is what lets the
// cache prove it is current: the Storage contract has no progress notifications, so only a
// stream that sees every write can tell that revision R has passed without touching prefix P.
// A prefix's cache is loaded on first use by a read at exactly the clock's revision; events
// that arrive while that read runs are held and applied after it.

import type { Logger } from '../../api/log.ts';
import { prefixEnd, StorageError, type Storage, type WatchEvent, type Watcher } from '../interface.ts';
import type { FanOut } from './fan-out.ts';
import { PrefixCache, type PrefixCacheLimits } from './prefix-cache.ts';
import type { IndexFunc } from './field-index.ts';
import { resourcePrefixOf } from './prefixes.ts';
import { RevisionClock } from './revision-clock.ts';

export interface FeedOptions {
  /** the watched key space: every write under it moves the clock */
  root: string;
  limits: PrefixCacheLimits;
  fanOut: FanOut;
  /** secondary indexes per resource prefix: index name → field reader */
  indexers?: Record<string, Record<string, IndexFunc>>;
  log?: Logger;
}

const loadAttempts = 3;

export class Feed {
  readonly clock = new RevisionClock();
  readonly caches = new Map<string, PrefixCache>();
  /** times the stream broke and every cache was dropped */
  resets = 0;
  private inner: Storage;
  private opts: FeedOptions;
  private started?: Promise<void>;
  private watcher?: Watcher;
  /** bumped on every reset, so late callbacks of an old stream or load are ignored */
  private generation = 0;
  private loading = new Map<string, Promise<PrefixCache>>();
  /** events for prefixes whose initial read is in flight */
  private held = new Map<string, WatchEvent[]>();
  private compacted = 0;

  constructor(inner: Storage, opts: FeedOptions) {
    this.inner = inner;
    this.opts = opts;
  }

  /** the loaded cache of a prefix (loading it first if needed) */
  ensure(prefix: string): Promise<PrefixCache> {
    const ready = this.caches.get(prefix);
    if (ready) return Promise.resolve(ready);
    let loading = this.loading.get(prefix);
    if (!loading) {
      loading = this.load(prefix).finally(() => this.loading.delete(prefix));
      this.loading.set(prefix, loading);
    }
    return loading;
  }

  /** whether `cache` is still the live cache of its prefix (a reset replaces every cache) */
  isLive(cache: PrefixCache): boolean {
    return this.caches.get(cache.prefix) === cache;
  }

  /** the backend compacted: history below it is dropped from every cache */
  noteCompacted(revision: number): void {
    if (revision <= this.compacted) return;
    this.compacted = revision;
    for (const c of this.caches.values()) c.trim(revision);
  }

  /** ends the stream; every watcher of every cache gets `err` */
  stop(err: Error): void {
    this.generation++;
    this.watcher?.cancel();
    this.watcher = undefined;
    this.started = undefined;
    for (const c of this.caches.values()) for (const w of [...c.watchers]) this.opts.fanOut.end(w, err);
    this.caches.clear();
    this.held.clear();
    this.clock.failAll();
  }

  /** the stream is running (started now if no read started it yet) */
  running(): Promise<void> {
    return this.start();
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      const gen = this.generation;
      const from = await this.inner.currentRevision();
      this.compacted = await this.inner.compactedRevision();
      if (gen !== this.generation) throw new StorageError('unavailable', 'watch cache restarted');
      this.clock.advance(from);
      this.watcher = this.inner.watch(this.opts.root, {
        afterRevision: from,
        onEvents: events => { if (gen === this.generation) this.apply(events); },
        onError: err => { if (gen === this.generation) this.broken(err); },
        // the backend saw every write up to here (writes outside the cached keys included)
        onProgress: revision => { if (gen === this.generation) this.clock.advance(revision); },
      });
    })().catch(err => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  private apply(events: readonly WatchEvent[]): void {
    let newest = this.clock.revision;
    for (const ev of events) {
      const revision = ev.kv.modRevision;
      // a backend that repeats an event (reconnects) must not make the cache apply it twice
      if (revision <= this.clock.revision) continue;
      newest = Math.max(newest, revision);
      const prefix = resourcePrefixOf(ev.kv.key);
      if (prefix === undefined) continue;
      const cache = this.caches.get(prefix);
      if (cache) cache.apply(ev);
      else this.held.get(prefix)?.push(ev);
    }
    this.clock.advance(newest);
  }

  private broken(err: Error): void {
    this.resets++;
    this.opts.log?.warn('watch cache lost its backend stream; caches dropped', { err: err.message });
    this.stop(err);
  }

  private async load(prefix: string): Promise<PrefixCache> {
    for (let attempt = 1; ; attempt++) {
      await this.start();
      const gen = this.generation;
      const at = this.clock.revision;
      this.held.set(prefix, []);
      try {
        // nothing existed at revision 0; asking for it would mean "newest" to the backend
        const kvs = at === 0 ? [] : (await this.inner.range(prefix, prefixEnd(prefix), { revision: at })).kvs;
        if (gen !== this.generation) throw new StorageError('unavailable', 'watch cache restarted');
        const cache = new PrefixCache(prefix, kvs, at, this.opts.limits, this.opts.fanOut, this.opts.indexers?.[prefix]);
        cache.trim(this.compacted);
        for (const ev of this.held.get(prefix) ?? []) if (ev.kv.modRevision > at) cache.apply(ev);
        this.caches.set(prefix, cache);
        this.opts.log?.debug('watch cache loaded', { prefix, revision: at, objects: kvs.length });
        return cache;
      } catch (err) {
        const retry = attempt < loadAttempts && err instanceof StorageError && (err.code === 'compacted' || err.code === 'unavailable');
        if (!retry) throw err;
      } finally {
        if (this.generation === gen) this.held.delete(prefix);
      }
    }
  }
}
