// Group commit: writes submitted while a batch is forming (until the next setImmediate) run in
// one transaction, so one durable sync is shared by all of them. Each write settles on its own
// and only after COMMIT has returned and, where commit hands back a promise (the durable sync,
// off the event loop), once that has settled; writes submitted meanwhile form the next batch.
// A write that fails its own check (a StorageError such as 'conflict') is rejected alone, while
// any other error aborts the transaction and fails every write of the batch.

import { StorageError } from '../interface.ts';

export interface GroupCommitHooks<Op> {
  begin(): void;
  /** runs inside the transaction; throws a StorageError to fail only this write */
  apply(op: Op): unknown;
  /** a promise: the batch is durable once it settles, and the next batch waits for it */
  commit(): void | Promise<void>;
  rollback(): void;
  /** after COMMIT, before any write settles (publish events, advance the revision) */
  committed(): void;
  /** after a rollback: forget whatever the batch staged */
  aborted(err: unknown): void;
  /** the durable sync of a committed batch failed: what is in memory can no longer be trusted */
  syncFailed?(err: unknown): void;
}

interface Job<Op> { op: Op; resolve(v: unknown): void; reject(e: unknown): void }

export class GroupCommit<Op> {
  /** transactions committed, and writes in them (for tests and metrics) */
  stats = { batches: 0, writes: 0 };
  private queue: Job<Op>[] = [];
  private scheduled = false;
  /** a committed batch is waiting for its durable sync */
  private syncing = false;
  private hooks: GroupCommitHooks<Op>;
  private maxBatch: number;
  private drained: Array<() => void> = [];

  constructor(hooks: GroupCommitHooks<Op>, opts: { maxBatch?: number } = {}) {
    this.hooks = hooks;
    this.maxBatch = opts.maxBatch ?? 1000;
  }

  submit(op: Op): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      this.schedule();
    });
  }

  /** resolves once every submitted write has settled */
  idle(): Promise<void> {
    if (!this.scheduled && !this.syncing && this.queue.length === 0) return Promise.resolve();
    return new Promise(r => this.drained.push(r));
  }

  private schedule(): void {
    if (this.scheduled || this.syncing) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    // the end of the sync in progress schedules the next batch
    if (this.syncing) return;
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length > 0) this.run(batch);
    if (this.queue.length > 0) this.schedule();
    this.settled();
  }

  private settled(): void {
    if (!this.scheduled && !this.syncing) for (const r of this.drained.splice(0)) r();
  }

  private run(batch: Job<Op>[]): void {
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    let durable: void | Promise<void>;
    try {
      this.hooks.begin();
      for (const job of batch) {
        try {
          outcomes.push({ ok: true, value: this.hooks.apply(job.op) });
        } catch (err) {
          if (!(err instanceof StorageError)) throw err;
          outcomes.push({ ok: false, value: err });
        }
      }
      durable = this.hooks.commit();
    } catch (err) {
      try { this.hooks.rollback(); } catch { /* the failed statement may have ended the transaction */ }
      this.hooks.aborted(err);
      const failure = new StorageError('unavailable', `storage write failed: ${(err as Error).message}`);
      for (const job of batch) job.reject(failure);
      return;
    }
    if (!durable) return this.finish(batch, outcomes);
    this.syncing = true;
    durable.then(() => this.finish(batch, outcomes), err => {
      // committed but not known to be on disk: nothing of it may be acknowledged
      const failure = new StorageError('unavailable', `storage sync failed: ${(err as Error).message}`);
      for (const job of batch) job.reject(failure);
      this.hooks.syncFailed?.(err);
    }).finally(() => {
      this.syncing = false;
      if (this.queue.length > 0) this.schedule();
      this.settled();
    });
  }

  private finish(batch: Job<Op>[], outcomes: Array<{ ok: boolean; value: unknown }>): void {
    this.stats.batches++;
    this.stats.writes += batch.length;
    this.hooks.committed();
    batch.forEach((job, i) => (outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value)));
  }
}
