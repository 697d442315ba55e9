// API Priority and Fairness' dispatcher: sizes each priority level's seats from the server
// concurrency limit (again whenever the configuration changes, and every ten seconds by recent
// demand so idle levels lend to busy ones), and asks the level's fair queues when a request may
// run. The configuration side (which flow and level a request is in) is the classifier's.

import type { User } from '../user.ts';
import type { RequestInfo } from '../request-info.ts';
import type { FlowClassification, FlowClassifier, PriorityLevel } from './types.ts';
import { allocateSeats, initialLimit, levelLimits, type LevelLimits } from './limits.ts';
import { QueueSet, type RejectReason, type Schedule } from './queueset.ts';
import { SeatDemand } from './seat-demand.ts';
import { flowHash } from './shuffle-shard.ts';
import type { ObjectCounter } from './width.ts';
import { estimateWork } from './work-estimate.ts';
import { WatchTracker } from './watch-tracker.ts';
import { RetryAfter } from './retry-after.ts';
import { createFlowControlMetrics, type FlowControlMetrics } from './metrics.ts';

export interface DispatcherOptions {
  classifier: FlowClassifier;
  /** --max-requests-inflight plus --max-mutating-requests-inflight */
  serverConcurrencyLimit: number;
  /** stored objects per group-resource, for the width of lists */
  objectCount?: ObjectCounter;
  metrics?: FlowControlMetrics;
  /** how often seats are re-divided by demand (Kubernetes: 10 s); 0: only on configuration changes */
  adjustIntervalMs?: number;
  /** a monotonic clock in ms */
  now?: () => number;
  /** the wall clock in ms, for Retry-After's seconds */
  wallClock?: () => number;
  /** how a request's final seats are given back after its additional latency (tests: a fake clock) */
  schedule?: Schedule;
}

export type Ticket =
  | { admitted: true; classification: FlowClassification; seats: number; release(): void }
  | { admitted: false; classification: FlowClassification; reason: RejectReason; retryAfterSeconds: number };

interface LevelState {
  level: PriorityLevel;
  limits: LevelLimits;
  current: number;
  /** undefined for exempt levels, which never wait */
  queues?: QueueSet;
  /** an exempt level's demand (a limited level's is its queue set's) */
  exemptDemand?: SeatDemand;
  exemptSeats: number;
}

export class Dispatcher {
  private levels = new Map<string, LevelState>();
  private opts: DispatcherOptions;
  private now: () => number;
  private retry: RetryAfter;
  private timer?: ReturnType<typeof setInterval>;
  readonly metrics: FlowControlMetrics;
  /** the watches APF let start, whose events the writes are charged for */
  readonly watches = new WatchTracker();

  constructor(opts: DispatcherOptions) {
    this.opts = opts;
    this.now = opts.now ?? (() => performance.now());
    this.retry = new RetryAfter(opts.wallClock);
    this.metrics = opts.metrics ?? createFlowControlMetrics();
    this.metrics.limits(() => [...this.levels].map(([name, s]) => [name, { nominal: s.limits.nominal, current: s.current, lower: s.limits.lower, upper: s.limits.upper }] as const));
    opts.classifier.onChange(() => this.configure());
    this.configure();
    const every = opts.adjustIntervalMs ?? 10_000;
    if (every > 0) {
      this.timer = setInterval(() => this.adjustBorrowing(), every);
      this.timer.unref();
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** a level's limits and the seats it may use now */
  limitsOf(level: string): (LevelLimits & { current: number }) | undefined {
    const s = this.levels.get(level);
    return s && { ...s.limits, current: s.current };
  }

  /** the levels as the classifier now has them: new ones get queues, changed ones new limits */
  configure(): void {
    const levels = this.opts.classifier.priorityLevels();
    const limits = levelLimits(levels, this.opts.serverConcurrencyLimit);
    const next = new Map<string, LevelState>();
    for (const level of levels) {
      const l = limits.get(level.name)!;
      const old = this.levels.get(level.name);
      if (old && old.level.exempt === level.exempt) {
        old.level = level;
        old.limits = l;
        next.set(level.name, old);
        continue;
      }
      const current = initialLimit(l);
      next.set(level.name, level.exempt
        ? { level, limits: l, current, exemptDemand: new SeatDemand(this.now), exemptSeats: 0 }
        : { level, limits: l, current, queues: new QueueSet(level.queuing, current, this.now, this.opts.schedule), exemptSeats: 0 });
    }
    // a level that is gone keeps serving what it admitted (its tickets hold its queue set)
    this.levels = next;
    this.adjustBorrowing();
  }

  /**
   * Re-divides the nominal seats by each level's smoothed demand over the last period: a level
   * keeps at least the lesser of its nominal limit and its peak demand (and never less than its
   * lower bound), at most its upper bound, and the rest goes to all in proportion to demand.
   */
  adjustBorrowing(): void {
    const states = [...this.levels.values()];
    const total = states.reduce((n, s) => n + s.limits.nominal, 0);
    const items = states.map(s => {
      const demand = s.queues?.demand ?? s.exemptDemand!;
      demand.endPeriod();
      const lower = Math.max(s.limits.lower, Math.min(s.limits.nominal, demand.highWatermark));
      return { lower, upper: s.limits.upper, target: Math.max(lower, demand.smoothed) };
    });
    const allocs = allocateSeats(total, items);
    states.forEach((s, i) => {
      s.current = Math.round(allocs[i]!);
      s.queues?.configure(s.level.queuing, s.current);
    });
  }

  /**
   * Classifies the request and waits for its seats: admitted (release the seats when done) or
   * rejected with the reason and the Retry-After to send.
   */
  async admit(user: User, info: RequestInfo, query: URLSearchParams, waitLimitMs: number, signal?: AbortSignal): Promise<Ticket> {
    const classification = this.opts.classifier.classify(user, info);
    const levelName = classification.priorityLevel.name;
    let state = this.levels.get(levelName);
    if (!state) {
      this.configure();
      state = this.levels.get(levelName);
      if (!state) throw new Error(`priority level ${levelName} is not configured`);
    }
    const fs = classification.flowSchema.name;
    const g = this.metrics.gauges(levelName, fs);
    const queues = state.queues;
    if (!queues) {
      const exempt = state;
      // counted, never limited
      g.executing++;
      g.seats++;
      exempt.exemptDemand!.set(++exempt.exemptSeats);
      this.metrics.dispatched(levelName, fs);
      return { admitted: true, classification, seats: 1, release: once(() => { g.executing--; g.seats--; exempt.exemptDemand!.set(--exempt.exemptSeats); }) };
    }
    const work = estimateWork(info, query, { objects: this.opts.objectCount ?? (() => undefined), watches: i => this.watches.interested(i) }, state.limits.maxSeats);
    if (work.watchCount !== undefined) this.metrics.watchCount(levelName, fs, work.watchCount);
    const queuing = state.level.queuing;
    // one queue: every flow shares it, and no hash is needed
    const hash = queuing && queuing.queues > 1 ? flowHash(fs, classification.distinguisher) : 0n;
    g.inQueue++;
    // the seats counted are those held at dispatch (the queue set may narrow a write's final
    // seats to the level's limit), given back when the queue set gives them back
    let seats = 0;
    const a = await queues.start(work, hash, waitLimitMs, signal, () => { g.seats -= seats; });
    g.inQueue--;
    this.metrics.waited(levelName, fs, a.admitted, a.waitedMs / 1000);
    if (!a.admitted) {
      this.metrics.rejected(levelName, fs, a.reason);
      return { admitted: false, classification, reason: a.reason, retryAfterSeconds: this.retry.rejected(levelName) };
    }
    this.metrics.dispatched(levelName, fs);
    g.executing++;
    seats = a.seats;
    g.seats += seats;
    return { admitted: true, classification, seats, release: once(() => { g.executing--; a.release(); }) };
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => { if (!done) { done = true; fn(); } };
}
