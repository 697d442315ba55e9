// Periodic compaction: keep the history of the last `retentionMs` (5 minutes by default, as a
// Kubernetes API server keeps watch history on etcd) and forget what is older.

import type { Logger } from '../api/log.ts';
import type { Storage } from './interface.ts';

export interface CompactorOptions {
  intervalMs: number;
  retentionMs: number;
  log?: Logger;
  /** the newest revision written before a wall-clock time, when the backend can tell */
  revisionBefore?: (ms: number) => number;
}

/** a backend that can tell which revision was newest at a point in wall-clock time */
interface TimedStorage extends Storage { revisionBefore?(ms: number): number }

export function startCompactor(storage: TimedStorage, opts: CompactorOptions): { stop(): void; runOnce(): Promise<number> } {
  // backends without write times compact to the revision seen one retention period ago
  const seen: Array<{ at: number; revision: number }> = [];
  const runOnce = async (): Promise<number> => {
    const now = Date.now();
    let target: number;
    const before = opts.revisionBefore ?? storage.revisionBefore?.bind(storage);
    if (before) {
      target = before(now - opts.retentionMs);
    } else {
      seen.push({ at: now, revision: await storage.currentRevision() });
      while (seen.length > 1 && seen[1]!.at <= now - opts.retentionMs) seen.shift();
      target = seen[0]!.at <= now - opts.retentionMs ? seen[0]!.revision : 0;
    }
    if (target > (await storage.compactedRevision())) {
      await storage.compact(target);
      opts.log?.info('compacted storage', { revision: target });
    }
    return target;
  };
  const timer = setInterval(() => { runOnce().catch(err => opts.log?.warn('compaction failed', { err: String(err) })); }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
