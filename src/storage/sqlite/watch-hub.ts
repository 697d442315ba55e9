// Watch delivery: each watcher first reads the history it asked for from the log, page by page
// up to the revision that was current when it started, then gets live events, which the store
// publishes after each commit. Live events of commits made during the catch-up wait in the
// watcher's queue; they are all newer than the catch-up bound, so nothing is skipped or
// delivered twice across the switch. Delivery runs off the writer's path (a microtask, and a
// macrotask between history pages), in revision order per watcher; when onEvents returns a
// promise the next batch waits for it.

import { StorageError, type WatchEvent, type WatchOptions, type Watcher } from '../interface.ts';

export interface WatchSource {
  /** committed events under prefix with after < revision <= upTo, oldest first, at most `limit` */
  history(prefix: string, after: number, upTo: number, limit: number): WatchEvent[];
  compacted(): number;
  current(): number;
}

export interface WatchHubOptions {
  /** history rows read per step of a catch-up */
  pageSize?: number;
  /** a watcher with more undelivered events than this is ended (it would only grow) */
  maxQueued?: number;
}

type Item = { events: WatchEvent[] } | { progress: number };

interface Stream {
  prefix: string;
  opts: WatchOptions;
  /** newest revision the watcher has been given (or that it asked to skip) */
  cursor: number;
  /** history up to here comes from the log; everything newer is published live */
  catchUpTo: number;
  queue: Item[];
  queued: number;
  running: boolean;
  closed: boolean;
}

const nextTurn = () => new Promise<void>(r => setImmediate(r));

export class WatchHub {
  private streams = new Set<Stream>();
  private source: WatchSource;
  private pageSize: number;
  private maxQueued: number;

  constructor(source: WatchSource, opts: WatchHubOptions = {}) {
    this.source = source;
    this.pageSize = opts.pageSize ?? 1000;
    this.maxQueued = opts.maxQueued ?? 200_000;
  }

  get size(): number {
    return this.streams.size;
  }

  /** must be called synchronously with reading source.current(), outside a write transaction */
  add(prefix: string, opts: WatchOptions): Watcher {
    const s: Stream = { prefix, opts, cursor: opts.afterRevision, catchUpTo: this.source.current(), queue: [], queued: 0, running: false, closed: false };
    this.streams.add(s);
    this.kick(s);
    return {
      cancel: () => this.end(s),
      requestProgress: () => {
        if (s.closed) return;
        s.queue.push({ progress: this.source.current() });
        this.kick(s);
      },
    };
  }

  /** events of one commit, in revision order */
  publish(events: WatchEvent[]): void {
    if (events.length === 0) return;
    for (const s of this.streams) {
      // a watch that starts from a revision not yet written skips events up to it
      const mine = events.filter(ev => ev.kv.modRevision > s.opts.afterRevision && ev.kv.key.startsWith(s.prefix));
      if (mine.length === 0) continue;
      s.queue.push({ events: mine });
      s.queued += mine.length;
      if (s.queued > this.maxQueued) this.end(s, new StorageError('unavailable', `watch of ${s.prefix} fell more than ${this.maxQueued} events behind`));
      else this.kick(s);
    }
  }

  /** the backend is closing: every watch ends with `err` */
  closeAll(err: Error): void {
    for (const s of [...this.streams]) this.end(s, err);
  }

  private end(s: Stream, err?: Error): void {
    if (s.closed) return;
    s.closed = true;
    s.queue = [];
    this.streams.delete(s);
    if (err) queueMicrotask(() => s.opts.onError(err));
  }

  private kick(s: Stream): void {
    if (s.running || s.closed) return;
    s.running = true;
    queueMicrotask(() => {
      this.pump(s).catch(err => this.end(s, err instanceof Error ? err : new Error(String(err)))).finally(() => { s.running = false; });
    });
  }

  private async pump(s: Stream): Promise<void> {
    while (!s.closed) {
      if (s.cursor < s.catchUpTo) {
        await this.catchUpStep(s);
        continue;
      }
      const item = s.queue.shift();
      if (!item) return;
      if ('progress' in item) {
        s.opts.onProgress?.(item.progress);
        continue;
      }
      // hand over everything queued so far in one call
      let batch = item.events;
      while (s.queue[0] && 'events' in s.queue[0]) batch = batch.concat((s.queue.shift() as { events: WatchEvent[] }).events);
      s.queued -= batch.length;
      s.cursor = batch[batch.length - 1]!.kv.modRevision;
      await s.opts.onEvents(batch);
    }
  }

  private async catchUpStep(s: Stream): Promise<void> {
    const compacted = this.source.compacted();
    if (s.cursor + 1 < compacted) {
      this.end(s, new StorageError('compacted', `required revision ${s.cursor + 1} has been compacted`, { revision: compacted }));
      return;
    }
    const page = this.source.history(s.prefix, s.cursor, s.catchUpTo, this.pageSize);
    const last = page.length < this.pageSize;
    s.cursor = last ? s.catchUpTo : page[page.length - 1]!.kv.modRevision;
    if (page.length > 0) await s.opts.onEvents(page);
    // let writers and other watchers run between pages of a long replay
    if (!last) await nextTurn();
  }
}
