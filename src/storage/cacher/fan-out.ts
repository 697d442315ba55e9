// Delivery of cached events to watchers. The cache only appends to per-watcher queues while it
// applies an event; a single dispatch pass on the next turn of the event loop hands the queues
// out, so the events of one commit (applied in one turn) reach each watcher as one batch, one
// write to its connection. A watcher that throws, or whose returned promise keeps its queue from
// draining until the queue passes its bound, ends alone: writers and the other watchers never
// wait for it.

import { StorageError, type WatchEvent, type WatchOptions } from '../interface.ts';

/** a progress marker rides in the queue so it can never overtake the events before it */
type Item = WatchEvent | { progress: number; forced: boolean };

export class CacheWatcher {
  readonly prefix: string;
  readonly opts: WatchOptions;
  /** the newest revision enqueued for this watcher (events or progress) */
  lastRevision: number;
  queue: Item[] = [];
  queuedEvents = 0;
  /** a promise returned by onEvents has not settled yet */
  busy = false;
  closed = false;
  /** set by the owner: forget this watcher once it ends */
  onClose: () => void = () => {};

  constructor(prefix: string, opts: WatchOptions) {
    this.prefix = prefix;
    this.opts = opts;
    this.lastRevision = opts.afterRevision;
  }

  /** whether a (live) event is for this watcher */
  wants(key: string, revision: number): boolean {
    return revision > this.opts.afterRevision && key.startsWith(this.prefix);
  }
}

/**
 * When dispatch passes run. A pass costs about the same whether it carries one event per watcher
 * or ten (mostly one write per watcher), so when passes come back to back waiting lets the next
 * one carry more events for the same cost. That wait only buys something when passes take a
 * real share of the event loop: a fixed interval instead made every event wait for it (half of
 * it on average), measured as most of the delivery latency of 1,000 watchers at 100 writes/s.
 * So a pass waits after the previous one only long enough to keep passes to `share` of the
 * loop while events stream in, and never longer than `maxIntervalMs`. What the watchers' clients
 * spend on each batch is not in a pass's cost, and in-process clients (the controllers'
 * informers) spend it on this loop: a loop busy beyond `busyShare` (a storm of writes) gets the
 * longest interval, as bigger batches are then what lets it keep up (measured: 100,000 pods
 * created, then listed: 1.6 s with full batches, 3–10 s with a pass per commit).
 */
export interface FanOutPacing {
  /** the most of the event loop's time dispatch passes may take while events stream in (0–1) */
  share: number;
  /** the longest a pass waits for the previous one */
  maxIntervalMs: number;
  /** the loop's utilization (0–1) above which passes are held the longest interval apart */
  busyShare?: number;
  now?: () => number;
  /** the event loop's utilization (0–1) since the previous call */
  loopBusy?: () => number;
  /** runs `fn` after `ms`; 0: on the next turn of the event loop, after this turn's I/O */
  schedule?: (fn: () => void, ms: number) => void;
}

/** share 1: every pass at once, on the next turn of the loop */
const atOnce: FanOutPacing = { share: 1, maxIntervalMs: 0 };
// a pass's cost is smoothed, so that one pass stretched by a GC or a busy CPU does not hold
// the next events back for the longest interval
const costWeight = 0.25;

// the loop's utilization is looked at over windows at least this long
const busyWindowMs = 100;

function loopUtilization(): () => number {
  let mark = performance.eventLoopUtilization();
  return () => {
    const u = performance.eventLoopUtilization(mark).utilization;
    mark = performance.eventLoopUtilization();
    return u;
  };
}

function nextTurnOr(fn: () => void, ms: number): void {
  if (ms > 0) setTimeout(fn, ms);
  else setImmediate(fn);
}

export class FanOut {
  private dirty = new Set<CacheWatcher>();
  private scheduled = false;
  private maxQueue: number;
  private pacing: FanOutPacing;
  private now: () => number;
  private schedule: (fn: () => void, ms: number) => void;
  /** smoothed time a pass takes, the watchers' writes included */
  private passCost = 0;
  /** no pass starts before this */
  private nextPassAt = 0;
  private loopBusy: () => number;
  private busySince = 0;
  /** the loop was busier than `busyShare` over the last window */
  private busy = false;
  /** watchers ended for being too slow, since the start */
  slowTerminations = 0;

  constructor(maxQueue: number, pacing: FanOutPacing = atOnce) {
    this.maxQueue = maxQueue;
    this.pacing = pacing;
    this.now = pacing.now ?? (() => performance.now());
    this.schedule = pacing.schedule ?? nextTurnOr;
    this.loopBusy = pacing.loopBusy ?? loopUtilization();
  }

  /** how long a pass waits after the previous one at the current cost of a pass */
  get intervalMs(): number {
    const { share, maxIntervalMs } = this.pacing;
    if (share >= 1) return 0;
    if (this.busy) return maxIntervalMs;
    return Math.min(maxIntervalMs, (this.passCost * (1 - share)) / share);
  }

  /** queues events; `replay` (a new watcher's history) may exceed the bound once, as one batch */
  events(w: CacheWatcher, events: readonly WatchEvent[], replay = false): void {
    if (w.closed || events.length === 0) return;
    for (const ev of events) w.queue.push(ev);
    w.queuedEvents += events.length;
    w.lastRevision = Math.max(w.lastRevision, events[events.length - 1]!.kv.modRevision);
    // only a watcher still busy with an earlier batch is behind; the rest drain at the next pass
    if (!replay && w.busy && w.queuedEvents > this.maxQueue) {
      this.slowTerminations++;
      this.end(w, new StorageError('unavailable', 'watcher too slow'));
      return;
    }
    this.markDirty(w);
  }

  /** tell the watcher every change up to `revision` has been sent; `forced` sends it even if nothing moved */
  progress(w: CacheWatcher, revision: number, forced: boolean): void {
    if (w.closed || !w.opts.onProgress) return;
    if (!forced && revision <= w.lastRevision) return;
    w.lastRevision = Math.max(w.lastRevision, revision);
    w.queue.push({ progress: revision, forced });
    this.markDirty(w);
  }

  /** ends a watch with an error, delivered after the current turn so the caller is never re-entered */
  end(w: CacheWatcher, err: Error): void {
    if (w.closed) return;
    this.close(w);
    setImmediate(() => w.opts.onError(err));
  }

  /** ends a watch without telling it (it was cancelled) */
  close(w: CacheWatcher): void {
    if (w.closed) return;
    w.closed = true;
    w.queue = [];
    w.queuedEvents = 0;
    this.dirty.delete(w);
    w.onClose();
  }

  private markDirty(w: CacheWatcher): void {
    if (w.busy) return;
    this.dirty.add(w);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.dispatch(), Math.max(0, this.nextPassAt - this.now()));
  }

  private dispatch(): void {
    this.scheduled = false;
    const started = this.now();
    const batch = this.dirty;
    this.dirty = new Set();
    for (const w of batch) this.drain(w);
    // the watchers' writes run as microtasks queued during the pass: this one runs after them
    queueMicrotask(() => {
      const ended = this.now();
      const cost = ended - started;
      this.passCost = this.passCost === 0 ? cost : this.passCost + (cost - this.passCost) * costWeight;
      if (ended - this.busySince >= busyWindowMs) {
        this.busy = this.loopBusy() > (this.pacing.busyShare ?? 1);
        this.busySince = ended;
      }
      this.nextPassAt = ended + this.intervalMs;
    });
  }

  private drain(w: CacheWatcher): void {
    while (!w.closed && !w.busy && w.queue.length > 0) {
      const head = w.queue[0]!;
      if ('progress' in head) {
        w.queue.shift();
        this.call(w, () => w.opts.onProgress?.(head.progress));
        continue;
      }
      let n = 0;
      while (n < w.queue.length && !('progress' in w.queue[n]!)) n++;
      // usually the whole queue is events: hand it over rather than copy it out
      let events: WatchEvent[];
      if (n === w.queue.length) {
        events = w.queue as WatchEvent[];
        w.queue = [];
      } else {
        events = w.queue.splice(0, n) as WatchEvent[];
      }
      w.queuedEvents -= events.length;
      this.call(w, () => w.opts.onEvents(events));
    }
  }

  private call(w: CacheWatcher, fn: () => unknown): void {
    let out: unknown;
    try {
      out = fn();
    } catch (err) {
      this.end(w, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (out && typeof (out as Promise<void>).then === 'function') {
      w.busy = true;
      (out as Promise<void>).then(
        () => { w.busy = false; if (!w.closed && w.queue.length) this.markDirty(w); },
        err => { w.busy = false; this.end(w, err instanceof Error ? err : new Error(String(err))); },
      );
    }
  }
}
