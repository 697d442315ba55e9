// A work queue for control loops, with client-go's guarantees: a key waits in the queue at most
// once however often it is added, one key is never processed by two workers at once (an add
// while it is processed runs it again afterwards), and failures are retried with per-key
// exponential backoff that a success resets.

import type { Logger } from '../api/log.ts';
import { KeyedBackoff } from '../api/backoff.ts';
import { ApiError } from './api-error.ts';

/** what a sync asks for: nothing, or another look after a while (work still in progress) */
export type SyncResult = void | { requeueAfterMs: number };

export interface WorkQueueOptions {
  /** workers processing different keys at the same time; default 1 */
  concurrency?: number;
  /** first retry delay after a failure, doubled per further failure; default 100ms */
  baseDelayMs?: number;
  maxDelayMs?: number;
  log?: Logger;
}

export interface WorkQueue {
  add(key: string): void;
  /** adds the key after ms (the earliest of several pending delays wins) */
  addAfter(key: string, ms: number): void;
  /** adds the key after its backoff delay, which grows with each call until forget */
  addRateLimited(key: string): void;
  forget(key: string): void;
  /** keys waiting to be processed, not counting delayed ones */
  len(): number;
  /** resolves when nothing is queued, being processed or delayed */
  idle(): Promise<void>;
  shutdown(): void;
}

export function createWorkQueue(sync: (key: string) => Promise<SyncResult>, opts: WorkQueueOptions = {}): WorkQueue {
  const concurrency = opts.concurrency ?? 1;
  const failures = new KeyedBackoff({ initialMs: opts.baseDelayMs ?? 100, maxMs: opts.maxDelayMs ?? 60_000 });
  const queue: string[] = [];
  const dirty = new Set<string>();
  const processing = new Set<string>();
  const delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  let idleWaiters: Array<() => void> = [];
  let down = false;

  const checkIdle = () => {
    if (queue.length || processing.size || delayed.size) return;
    const w = idleWaiters;
    idleWaiters = [];
    w.forEach(f => f());
  };

  function pump(): void {
    while (!down && processing.size < concurrency && queue.length) {
      const key = queue.shift()!;
      dirty.delete(key);
      processing.add(key);
      void run(key);
    }
    checkIdle();
  }

  async function run(key: string): Promise<void> {
    try {
      const result = await sync(key);
      q.forget(key);
      if (result && result.requeueAfterMs >= 0) q.addAfter(key, result.requeueAfterMs);
    } catch (err) {
      // a conflict is the ordinary race with another writer, retried at once: not worth a warning
      const level = err instanceof ApiError && err.code === 409 ? 'info' : 'warn';
      opts.log?.[level]('sync failed; will retry', { key, err: err instanceof Error ? err.message : String(err) });
      q.addRateLimited(key);
    } finally {
      processing.delete(key);
      if (dirty.has(key) && !down) queue.push(key);
      pump();
    }
  }

  const q: WorkQueue = {
    add(key) {
      if (down || dirty.has(key)) return;
      dirty.add(key);
      if (!processing.has(key)) queue.push(key);
      pump();
    },
    addAfter(key, ms) {
      if (down) return;
      if (ms <= 0) return q.add(key);
      const at = Date.now() + ms;
      const pending = delayed.get(key);
      if (pending && pending.at <= at) return;
      if (pending) clearTimeout(pending.timer);
      const timer = setTimeout(() => { delayed.delete(key); q.add(key); checkIdle(); }, ms);
      timer.unref();
      delayed.set(key, { at, timer });
    },
    addRateLimited(key) {
      q.addAfter(key, failures.next(key));
    },
    forget(key) { failures.forget(key); },
    len: () => queue.length,
    idle() {
      return new Promise(resolve => { idleWaiters.push(resolve); checkIdle(); });
    },
    shutdown() {
      down = true;
      for (const d of delayed.values()) clearTimeout(d.timer);
      delayed.clear();
      queue.length = 0;
      dirty.clear();
    },
  };
  return q;
}
