// The watch cache: a Storage that serves reads and watches from memory and sends writes to the
// Storage below it. Writes are never applied to the cache directly; it learns of them from the
// backend's event stream like any other watcher, so several servers sharing one backend stay
// correct. Reads of the newest state first wait until the stream has passed the backend's
// current revision (a consistent read); reads at a recent past revision are rebuilt from the
// event buffer; anything the cache cannot answer exactly goes to the backend.

import type { Logger } from '../../api/log.ts';
import { StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchOptions, type Watcher } from '../interface.ts';
import { CacheWatcher, FanOut, type FanOutPacing } from './fan-out.ts';
import { Feed } from './feed.ts';
import type { IndexFunc } from './field-index.ts';
import type { PrefixCache } from './prefix-cache.ts';
import { resourcePrefixOf, resourcePrefixOfRange } from './prefixes.ts';

export interface CacherOptions {
  /** 'auto' (default): every resource prefix is cached on first use; a list: only these, loaded at once */
  prefixes?: string[] | 'auto';
  /** events (and so snapshots) older than this are dropped; 75 s as in Kubernetes */
  eventWindowMs?: number;
  /** at most this many recent events per prefix */
  historyEvents?: number;
  /** a watcher with more undelivered events than this is ended as too slow */
  watcherQueue?: number;
  /** when deliveries to watchers run while events stream in (fan-out.ts); events in between go out together */
  dispatch?: FanOutPacing;
  /** how long a read waits for the cache to reach a revision before giving up */
  freshWaitMs?: number;
  /** the least time between two unrequested progress notifications */
  progressIntervalMs?: number;
  /** secondary indexes per resource prefix (index name → field reader), used by reads and watches that name them */
  indexers?: Record<string, Record<string, IndexFunc>>;
  log?: Logger;
  now?: () => number;
}

export interface CacherStats {
  revision: number;
  prefixes: Array<{ prefix: string; objects: number; events: number; floor: number; watchers: number }>;
  watchers: number;
  /** reads and watches the cache could not serve and sent to the backend */
  fallbackReads: number;
  fallbackWatches: number;
  slowWatchersEnded: number;
  resets: number;
}

// With a thousand watchers, one write per watcher per batch instead of per event is what keeps
// delivery within a fraction of a second under a storm of writes: passes are spaced out to keep
// them to a quarter of the event loop (at 1,000 watchers a pass takes about 2.5 ms, so 100
// writes/s still go out one by one, at once), and batches are never held longer than 20 ms;
// a loop busy more than 80% of the time (a storm of writes, in-process informers behind) gets
// those 20 ms.
const defaultDispatch: FanOutPacing = { share: 0.25, maxIntervalMs: 20, busyShare: 0.8 };

export type CachedStorage = Storage & { ready(prefix: string): Promise<void>; stats(): CacherStats };

export function createCacher(inner: Storage, opts: CacherOptions = {}): CachedStorage {
  return new Cacher(inner, opts);
}

/** the cache is kept per resource prefix; anything narrower or wider would never be fed */
function checkPrefix(prefix: string): void {
  if (resourcePrefixOf(prefix) !== prefix) throw new Error(`not a resource prefix: ${JSON.stringify(prefix)} (expected /registry/<resource>[.<group>]/)`);
}

class Cacher implements Storage {
  private inner: Storage;
  private feed: Feed;
  private fanOut: FanOut;
  private only?: Set<string>;
  private freshWaitMs: number;
  private log?: Logger;
  private ticker: NodeJS.Timeout;
  private closed = false;
  private fallbackReads = 0;
  private fallbackWatches = 0;

  constructor(inner: Storage, opts: CacherOptions) {
    this.inner = inner;
    this.log = opts.log;
    this.freshWaitMs = opts.freshWaitMs ?? 3000;
    this.fanOut = new FanOut(opts.watcherQueue ?? 10_000, opts.dispatch ?? defaultDispatch);
    this.feed = new Feed(inner, {
      root: '/',
      limits: { maxEvents: opts.historyEvents ?? 10_000, windowMs: opts.eventWindowMs ?? 75_000, now: opts.now ?? Date.now },
      fanOut: this.fanOut,
      indexers: opts.indexers,
      log: opts.log,
    });
    if (Array.isArray(opts.prefixes)) {
      for (const p of opts.prefixes) checkPrefix(p);
      this.only = new Set(opts.prefixes);
      for (const p of opts.prefixes) this.feed.ensure(p).catch(err => this.log?.warn('watch cache could not load', { prefix: p, err: String(err) }));
    }
    this.ticker = setInterval(() => this.tick(), opts.progressIntervalMs ?? 1000);
    this.ticker.unref();
  }

  private cacheable(prefix: string | undefined): string | undefined {
    if (prefix === undefined || this.closed) return undefined;
    return !this.only || this.only.has(prefix) ? prefix : undefined;
  }

  /** the live cache of a prefix, or undefined when it cannot be loaded (the backend answers) */
  private async cacheFor(prefix: string): Promise<PrefixCache | undefined> {
    try {
      return await this.feed.ensure(prefix);
    } catch (err) {
      this.log?.warn('watch cache unavailable; reading from storage', { prefix, err: String(err) });
      return undefined;
    }
  }

  async ready(prefix: string): Promise<void> {
    checkPrefix(prefix);
    await this.feed.ensure(prefix);
  }

  stats(): CacherStats {
    const prefixes = [...this.feed.caches.values()].map(c => ({ prefix: c.prefix, objects: c.index.size, events: c.buffer.length, floor: c.floor, watchers: c.watchers.size }));
    return {
      revision: this.feed.clock.revision,
      prefixes,
      watchers: prefixes.reduce((n, p) => n + p.watchers, 0),
      fallbackReads: this.fallbackReads,
      fallbackWatches: this.fallbackWatches,
      slowWatchersEnded: this.fanOut.slowTerminations,
      resets: this.feed.resets,
    };
  }

  currentRevision(): Promise<number> { return this.inner.currentRevision(); }

  async waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    await this.feed.running();
    return this.feed.clock.waitFor(revision, timeoutMs);
  }
  compactedRevision(): Promise<number> { return this.inner.compactedRevision(); }
  healthy(): Promise<boolean> { return this.inner.healthy(); }

  create(key: string, value: Uint8Array): Promise<KeyValue> { return this.inner.create(key, value); }
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> { return this.inner.update(key, value, expectedModRevision); }
  delete(key: string, expectedModRevision?: number): Promise<{ prevKv: KeyValue; revision: number }> { return this.inner.delete(key, expectedModRevision); }

  async compact(revision: number): Promise<void> {
    await this.inner.compact(revision);
    this.feed.noteCompacted(await this.inner.compactedRevision());
  }

  async get(key: string, opts?: { revision?: number; allowStale?: boolean }): Promise<{ kv?: KeyValue; revision: number }> {
    const prefix = this.cacheable(resourcePrefixOf(key));
    if (!prefix) return this.inner.get(key, opts);
    if (!opts?.revision) {
      // the newest state: one map lookup once the cache has caught up (the hot path of GET)
      const cache = await this.cacheFor(prefix);
      if (cache) {
        if ((opts?.allowStale && this.feed.isLive(cache)) || (await this.caughtUp(cache))) {
          return { kv: cache.index.get(key), revision: this.feed.clock.revision };
        }
        this.fallbackReads++;
        return this.inner.get(key);
      }
    }
    const res = await this.range(key, key + '\x00', { revision: opts?.revision });
    return { kv: res.kvs[0], revision: res.revision };
  }

  async range(start: string, end: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const prefix = this.cacheable(resourcePrefixOfRange(start, end));
    const cache = prefix === undefined ? undefined : await this.cacheFor(prefix);
    if (!cache) return this.inner.range(start, end, opts);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const clock = this.feed.clock;
    const wanted = opts.revision ?? 0;
    if (!wanted) {
      if (!(await this.caughtUp(cache))) return this.fallback(start, end, opts);
      return { ...cache.rangeNow(start, end, limit, opts.index), revision: clock.revision };
    }
    if (wanted > clock.revision && !(await clock.waitFor(wanted, this.freshWaitMs))) {
      const current = await this.inner.currentRevision();
      if (wanted <= current) return this.fallback(start, end, opts);
      throw new StorageError('future-revision', `required revision ${wanted} is a future revision`, { revision: current });
    }
    const compacted = await this.inner.compactedRevision();
    this.feed.noteCompacted(compacted);
    // below the compacted revision the backend's own answer ('compacted') is the right one
    if (wanted < compacted || !this.feed.isLive(cache)) return this.fallback(start, end, opts);
    cache.trim();
    if (wanted < cache.floor) return this.fallback(start, end, opts);
    return { ...cache.rangeAt(start, end, wanted, limit), revision: wanted };
  }

  /** the cache has seen every write the backend has made so far (a consistent read may use it) */
  private async caughtUp(cache: PrefixCache): Promise<boolean> {
    const current = await this.inner.currentRevision();
    return (await this.feed.clock.waitFor(current, this.freshWaitMs)) && this.feed.isLive(cache);
  }

  private fallback(start: string, end: string, opts: RangeOptions): Promise<RangeResult> {
    this.fallbackReads++;
    return this.inner.range(start, end, opts);
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    const resource = this.cacheable(resourcePrefixOf(prefix));
    if (resource === undefined) return this.inner.watch(prefix, opts);
    let cancelled = false;
    let fallback: Watcher | undefined;
    let cached: CacheWatcher | undefined;
    const attached = (async () => {
      const cache = await this.cacheFor(resource);
      const compacted = await this.inner.compactedRevision().catch(() => 0);
      if (cancelled) return;
      this.feed.noteCompacted(compacted);
      cache?.trim();
      // history the cache no longer holds (or the backend no longer has) is the backend's to answer
      if (!cache || !this.feed.isLive(cache) || opts.afterRevision < cache.floor || opts.afterRevision + 1 < compacted) {
        this.fallbackWatches++;
        fallback = this.inner.watch(prefix, opts);
        return;
      }
      cached = new CacheWatcher(prefix, opts);
      cache.attach(cached);
    })().catch(err => {
      if (!cancelled) opts.onError(err instanceof Error ? err : new Error(String(err)));
    });
    return {
      cancel: () => {
        cancelled = true;
        fallback?.cancel();
        if (cached) this.fanOut.close(cached);
      },
      requestProgress: () => {
        void attached.then(() => this.progressNow(cached, fallback));
      },
    };
  }

  /** a progress notification once the cache has caught up with the backend's current revision */
  private async progressNow(cached: CacheWatcher | undefined, fallback: Watcher | undefined): Promise<void> {
    if (fallback) return fallback.requestProgress?.();
    if (!cached || cached.closed) return;
    const current = await this.inner.currentRevision().catch(() => 0);
    await this.feed.clock.waitFor(current, this.freshWaitMs);
    const revision = this.feed.clock.revision;
    if (revision >= cached.opts.afterRevision) this.fanOut.progress(cached, revision, true);
  }

  /** periodic upkeep: age out history, and tell idle watchers how far the cache has got */
  private tick(): void {
    const revision = this.feed.clock.revision;
    for (const cache of this.feed.caches.values()) {
      cache.trim();
      for (const w of cache.watchers) if (w.opts.onProgress) this.fanOut.progress(w, revision, false);
    }
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      clearInterval(this.ticker);
      this.feed.stop(new StorageError('unavailable', 'storage closed'));
    }
    await this.inner.close();
  }
}
