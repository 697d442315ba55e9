// Group commit: writes submitted while a batch is forming (until the next setImmediate) run in
// one transaction, so one durable sync is shared by all of them. Each write settles on its own
// and only after COMMIT has returned: a write that fails its own check (a StorageError such as
// 'conflict') is rejected alone, while any other error aborts the transaction and fails every
// write of the batch.

import { StorageError } from '../interface.ts';

export interface GroupCommitHooks<Op> {
  begin(): void;
  /** runs inside the transaction; throws a StorageError to fail only this write */
  apply(op: Op): unknown;
  commit(): void;
  rollback(): void;
  /** after COMMIT, before any write settles (publish events, advance the revision) */
  committed(): void;
  /** after a rollback: forget whatever the batch staged */
  aborted(err: unknown): void;
}

interface Job<Op> { op: Op; resolve(v: unknown): void; reject(e: unknown): void }

export class GroupCommit<Op> {
  /** transactions committed, and writes in them (for tests and metrics) */
  stats = { batches: 0, writes: 0 };
  private queue: Job<Op>[] = [];
  private scheduled = false;
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
    if (!this.scheduled && this.queue.length === 0) return Promise.resolve();
    return new Promise(r => this.drained.push(r));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.maxBatch);
    if (this.queue.length > 0) this.schedule();
    if (batch.length > 0) this.run(batch);
    if (!this.scheduled) for (const r of this.drained.splice(0)) r();
  }

  private run(batch: Job<Op>[]): void {
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
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
      this.hooks.commit();
    } catch (err) {
      try { this.hooks.rollback(); } catch { /* the failed statement may have ended the transaction */ }
      this.hooks.aborted(err);
      const failure = new StorageError('unavailable', `storage write failed: ${(err as Error).message}`);
      for (const job of batch) job.reject(failure);
      return;
    }
    this.stats.batches++;
    this.stats.writes += batch.length;
    this.hooks.committed();
    batch.forEach((job, i) => (outcomes[i]!.ok ? job.resolve(outcomes[i]!.value) : job.reject(outcomes[i]!.value)));
  }
}
