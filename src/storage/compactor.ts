// Periodic compaction: keep the history of the last `retentionMs` (five minutes by default, the
// window a Kubernetes API server keeps on etcd) and forget what is older. The target is the
// newest revision written before now − retention. A backend that records write times says so
// through `revisionBefore`; for one that does not (etcd), the compactor samples the current
// revision at each run and uses the newest sample at least one retention period old.

import type { Logger } from '../api/log.ts';
import type { Storage } from './interface.ts';

export const defaultRetentionMs = 5 * 60_000;

export interface CompactorOptions {
  /** how often to compact */
  intervalMs: number;
  /** how much history to keep; default five minutes */
  retentionMs?: number;
  /** wall clock; tests move it by hand */
  now?: () => number;
  log?: Logger;
  /**
   * The newest revision written before a wall-clock time. Defaults to the storage's own
   * `revisionBefore` when it has one; pass it when `storage` is a wrapper (the watch cache).
   */
  revisionBefore?: (ms: number) => number | Promise<number>;
}

export interface CompactorStatus {
  /** when a run last ended without error (the start time until one has) */
  lastSuccessAt: number;
  /** the revision the last successful run compacted to (0: nothing was old enough) */
  lastTarget: number;
  /** the error of the newest run, when it failed */
  lastError?: string;
}

export interface Compactor {
  stop(): void;
  /** one compaction now; returns the target revision (0 when there was nothing old enough) */
  runOnce(): Promise<number>;
  status(): CompactorStatus;
  /**
   * throws when no run has succeeded for three intervals, so readiness shows a compaction that
   * stopped instead of a database that silently grows
   */
  check(): void;
}

/** a backend that knows when each revision was written */
interface TimedStorage extends Storage { revisionBefore?(ms: number): number }

export function startCompactor(storage: TimedStorage, opts: CompactorOptions): Compactor {
  const retention = opts.retentionMs ?? defaultRetentionMs;
  const now = opts.now ?? Date.now;
  const before = opts.revisionBefore ?? storage.revisionBefore?.bind(storage);
  const samples: Array<{ at: number; revision: number }> = [];
  let running: Promise<number> | undefined;
  const state: CompactorStatus = { lastSuccessAt: now(), lastTarget: 0 };

  const target = async (cutoff: number): Promise<number> => {
    if (before) return before(cutoff);
    samples.push({ at: now(), revision: await storage.currentRevision() });
    // drop samples once a younger one is also old enough
    while (samples.length > 1 && samples[1]!.at <= cutoff) samples.shift();
    return samples[0]!.at <= cutoff ? samples[0]!.revision : 0;
  };

  const once = async (): Promise<number> => {
    const revision = await target(now() - retention);
    if (revision > 0 && revision > (await storage.compactedRevision())) {
      await storage.compact(revision);
      opts.log?.info('compacted storage', { revision });
    }
    return revision;
  };

  const runOnce = (): Promise<number> => {
    // runs never overlap: a slow compaction makes the next tick wait, not pile up
    running ??= once().then(
      target => { Object.assign(state, { lastSuccessAt: now(), lastTarget: target, lastError: undefined }); return target; },
      err => { state.lastError = err instanceof Error ? err.message : String(err); throw err; },
    ).finally(() => { running = undefined; });
    return running;
  };

  const check = () => {
    const behind = now() - state.lastSuccessAt;
    if (behind <= 3 * opts.intervalMs) return;
    const why = state.lastError ? `: ${state.lastError}` : running ? ': a run is still going' : '';
    throw new Error(`storage compaction has not succeeded for ${Math.round(behind / 1000)}s${why}`);
  };

  const timer = setInterval(() => {
    runOnce().catch(err => opts.log?.warn('compaction failed', { err: String(err) }));
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce, status: () => ({ ...state }), check };
}
