// One priority level's fair queuing (the queueset of k8s.io/apiserver's fairqueuing): requests
// wait in queues chosen by shuffle sharding and are dispatched in order of their virtual finish
// time, virtual time advancing as the seats are shared among the queues with work. A queue that
// floods only moves its own virtual clock ahead, so the others keep their share of the seats.
// A request holds the wider of its initial and final seats from dispatch until its final seats
// are given back, its additional latency after it finished; its work in virtual time is its
// initial seats for the assumed service time plus its final seats for that latency.

import { dealHand } from './shuffle-shard.ts';
import { SeatDemand } from './seat-demand.ts';
import { maxSeatsOf, type WorkEstimate } from './work-estimate.ts';

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** absent: a level that rejects rather than queues */
export interface QueuingConfig { queues: number; handSize: number; queueLengthLimit: number }

export type Admission =
  /** `seats`: what it holds from dispatch until its seats are given back */
  | { admitted: true; waitedMs: number; seats: number; release(): void }
  | { admitted: false; reason: RejectReason; waitedMs: number };

// the service time assumed for every request until it ends (Kubernetes' G: 3 ms), in seconds
const estimatedServiceSeconds = 0.003;

/** runs `fn` after `ms` (a timer that does not hold the process open) */
export type Schedule = (fn: () => void, ms: number) => void;
const unrefTimer: Schedule = (fn, ms) => { setTimeout(fn, ms).unref(); };

/** seat-seconds: the initial seats for the assumed service time, the final ones for their latency */
const totalWork = (w: WorkEstimate) => w.initialSeats * estimatedServiceSeconds + w.finalSeats * w.additionalLatencyMs / 1000;

interface Waiting {
  work: WorkEstimate;
  /** the wider of its initial and final seats, as counted while it waits */
  seats: number;
  totalWork: number;
  queue: Queue;
  arrivedAt: number;
  /** virtual time when it arrived: its queue is never dispatched earlier than that */
  arrivalR: number;
  seatsFreed?: () => void;
  settle(a: Admission): void;
}

class Queue {
  waiting: Waiting[] = [];
  waitingSeats = 0;
  waitingWork = 0;
  executing = 0;
  seatsInUse = 0;
  nextDispatchR = 0;
  get active(): boolean { return this.waiting.length > 0 || this.executing > 0; }
}

export class QueueSet {
  private queues: Queue[] = [];
  private queuing?: QueuingConfig;
  private limit: number;
  private seatsInUse = 0;
  private executing = 0;
  private waitingSeats = 0;
  private waitingCount = 0;
  private currentR = 0;
  private lastSync: number;
  private robin = -1;
  private enqueues = 0;
  private now: () => number;
  private schedule: Schedule;
  readonly demand: SeatDemand;

  constructor(queuing: QueuingConfig | undefined, limit: number, now: () => number = () => performance.now(), schedule: Schedule = unrefTimer) {
    this.now = now;
    this.schedule = schedule;
    this.lastSync = now();
    this.limit = limit;
    this.demand = new SeatDemand(now);
    this.configure(queuing, limit);
  }

  /** a new queuing configuration or limit: queues beyond a smaller count drain but get no new requests */
  configure(queuing: QueuingConfig | undefined, limit: number): void {
    this.syncTime();
    this.queuing = queuing;
    this.limit = limit;
    while (this.queues.length < (queuing?.queues ?? 0)) {
      const q = new Queue();
      q.nextDispatchR = this.currentR;
      this.queues.push(q);
    }
    this.trimQueues();
    this.dispatchAll();
  }

  get concurrencyLimit(): number { return this.limit; }
  get stats(): { waiting: number; executing: number; seatsInUse: number } {
    return { waiting: this.waitingCount, executing: this.executing, seatsInUse: this.seatsInUse };
  }

  /**
   * Queues (or, without queuing, admits or rejects at once) a request of `work` (a number: that
   * many seats, nothing after) from the flow `hash`; it waits at most `waitLimitMs`, and leaves
   * when `signal` aborts. `seatsFreed` is told when its seats are given back, which for a
   * request with final seats is after its release.
   */
  start(work: WorkEstimate | number, hash: bigint, waitLimitMs: number, signal?: AbortSignal, seatsFreed?: () => void): Promise<Admission> {
    const estimate = typeof work === 'number' ? { initialSeats: work, finalSeats: 0, additionalLatencyMs: 0 } : { ...work };
    const seats = maxSeatsOf(estimate);
    const arrivedAt = this.now();
    this.syncTime();
    if (!this.queuing) {
      if (!this.canAccommodate(seats)) return Promise.resolve({ admitted: false, reason: 'concurrency-limit', waitedMs: 0 });
      this.seatsInUse += seats;
      this.executing++;
      this.noteDemand();
      return Promise.resolve({ admitted: true, waitedMs: 0, seats, release: this.releaser(estimate, undefined, arrivedAt, seatsFreed) });
    }
    const queue = this.queueOfHand(hash);
    // a request is turned away only when the level is busy and its queue full
    if (this.seatsInUse >= this.limit && queue.waiting.length >= this.queuing.queueLengthLimit) return Promise.resolve({ admitted: false, reason: 'queue-full', waitedMs: 0 });
    return new Promise<Admission>(resolve => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => this.leave(w, 'cancelled');
      const w: Waiting = {
        work: estimate, seats, totalWork: totalWork(estimate), seatsFreed, queue, arrivedAt, arrivalR: this.currentR,
        settle: a => {
          if (timer) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        },
      };
      // an idle queue starts from now in virtual time rather than from its past
      if (!queue.active) queue.nextDispatchR = this.currentR;
      queue.waiting.push(w);
      queue.waitingSeats += seats;
      queue.waitingWork += w.totalWork;
      this.waitingSeats += seats;
      this.waitingCount++;
      this.noteDemand();
      this.dispatchAll();
      if (queue.waiting.includes(w)) {
        timer = setTimeout(() => this.leave(w, 'time-out'), waitLimitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (signal?.aborted) this.leave(w, 'cancelled');
      }
    });
  }

  private leave(w: Waiting, reason: RejectReason): void {
    const i = w.queue.waiting.indexOf(w);
    if (i < 0) return;
    this.syncTime();
    this.unqueue(w, i);
    this.trimQueues();
    w.settle({ admitted: false, reason, waitedMs: this.now() - w.arrivedAt });
  }

  private unqueue(w: Waiting, index: number): void {
    w.queue.waiting.splice(index, 1);
    w.queue.waitingSeats -= w.seats;
    w.queue.waitingWork -= w.totalWork;
    this.waitingSeats -= w.seats;
    this.waitingCount--;
    this.noteDemand();
  }

  /**
   * The queue of the hand with the least work waiting; the hand is looked at from a place that
   * moves on with every request, so that ties do not always go to the same queue.
   */
  private queueOfHand(hash: bigint): Queue {
    const cfg = this.queuing!;
    const hand = dealHand(hash, cfg.queues, Math.min(cfg.handSize, cfg.queues));
    const offset = this.enqueues++ % hand.length;
    let best = this.queues[hand[offset]!]!;
    for (let k = 1; k < hand.length; k++) {
      const q = this.queues[hand[(offset + k) % hand.length]!]!;
      if (q.waitingWork < best.waitingWork) best = q;
    }
    return best;
  }

  private canAccommodate(seats: number): boolean {
    // a request wider than the whole limit runs alone, once nothing else does
    if (seats > this.limit) return this.executing === 0;
    return this.seatsInUse + seats <= this.limit;
  }

  /** virtual time advances at the rate each active queue is served: the seats in use or asked for, shared */
  private syncTime(): void {
    const t = this.now();
    const elapsed = (t - this.lastSync) / 1000;
    this.lastSync = t;
    if (elapsed <= 0) return;
    let active = 0;
    for (const q of this.queues) if (q.active) active++;
    if (active === 0) return;
    this.currentR += elapsed * Math.min(this.seatsInUse + this.waitingSeats, this.limit) / active;
  }

  /** nothing is dispatched while the seats in use (final seats too) fill the level */
  private dispatchAll(): void {
    // (a level given no seats at all still runs one request at a time)
    while (this.waitingCount > 0 && (this.seatsInUse < this.limit || this.seatsInUse === 0) && this.dispatchOne());
  }

  /** the head of the queue whose head finishes first in virtual time, when its seats are free */
  private dispatchOne(): boolean {
    const n = this.queues.length;
    let best: Queue | undefined;
    let bestIndex = -1;
    let bestFinish = Infinity;
    for (let k = 1; k <= n; k++) {
      const i = (this.robin + k) % n;
      const q = this.queues[i]!;
      const head = q.waiting[0];
      if (!head) continue;
      const finish = q.nextDispatchR + head.totalWork;
      if (finish < bestFinish) { best = q; bestIndex = i; bestFinish = finish; }
    }
    const head = best?.waiting[0];
    // a head that does not fit holds the others back, so that wide requests are not starved
    if (!best || !head || !this.canAccommodate(head.seats)) return false;
    this.unqueue(head, 0);
    const work = head.work;
    // final seats beyond the whole level become all its seats, held longer for the same work
    if (work.finalSeats > this.limit && this.limit > 0) {
      work.additionalLatencyMs = work.finalSeats * work.additionalLatencyMs / this.limit;
      work.finalSeats = this.limit;
    }
    const seats = maxSeatsOf(work);
    this.robin = bestIndex;
    best.nextDispatchR += head.totalWork;
    best.executing++;
    best.seatsInUse += seats;
    this.executing++;
    this.seatsInUse += seats;
    this.bound(best);
    this.noteDemand();
    const startedAt = this.now();
    head.settle({ admitted: true, waitedMs: startedAt - head.arrivedAt, seats, release: this.releaser(work, best, startedAt, head.seatsFreed) });
    return true;
  }

  /**
   * The end of a request's execution: it stops counting as executing at once, and its seats
   * come back at once or, with final seats, after its additional latency (the caller is not
   * kept waiting for them).
   */
  private releaser(work: WorkEstimate, queue: Queue | undefined, startedAt: number, seatsFreed?: () => void): () => void {
    const seats = maxSeatsOf(work);
    let released = false;
    const free = () => {
      this.syncTime();
      this.seatsInUse -= seats;
      if (queue) queue.seatsInUse -= seats;
      this.noteDemand();
      seatsFreed?.();
      this.trimQueues();
      this.dispatchAll();
    };
    return () => {
      if (released) return;
      released = true;
      this.syncTime();
      this.executing--;
      if (queue) {
        queue.executing--;
        // the estimate of the initial stage made at dispatch is corrected by the time it really took
        const actual = (this.now() - startedAt) / 1000;
        queue.nextDispatchR -= work.initialSeats * (estimatedServiceSeconds - actual);
        this.bound(queue);
      }
      if (work.additionalLatencyMs > 0) {
        this.schedule(free, work.additionalLatencyMs);
        this.trimQueues();
        this.dispatchAll();
      } else {
        free();
      }
    };
  }

  /** a queue that cannot use its share is not let run ahead: no dispatch before its head arrived */
  private bound(q: Queue): void {
    const head = q.waiting[0];
    if (head && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  }

  private trimQueues(): void {
    const want = this.queuing?.queues ?? 0;
    while (this.queues.length > want && !this.queues[this.queues.length - 1]!.active) this.queues.pop();
  }

  private noteDemand(): void {
    this.demand.set(this.seatsInUse + this.waitingSeats);
  }
}
