// Compaction of the log in steps: each step deletes the rows of one window of revisions in its
// own short transaction and the event loop runs between steps, so a large compaction does not
// stall writes or reads. The compacted revision is recorded before the first row goes, so no
// reader can see a half-compacted past: reads and watches below it already answer 'compacted'.

import type { DatabaseSync } from 'node:sqlite';
import type { Queries } from './queries.ts';

const windowSize = 5000;

export interface CompactionResult { deleted: number; steps: number }

/** marks `to` compacted, then deletes what reads at or above `to` no longer need */
export async function compactLog(db: DatabaseSync, q: Queries, to: number, markCompacted: () => void): Promise<CompactionResult> {
  inTransaction(db, () => q.setMeta('compacted', to));
  markCompacted();
  let deleted = 0;
  let steps = 0;
  // surviving rows from earlier compactions can sit anywhere below; start at the oldest row
  for (let lo = q.minId(); lo > 0 && lo < to; lo += windowSize) {
    const hi = Math.min(lo + windowSize, to);
    deleted += inTransaction(db, () => q.compactChunk(lo, hi, to));
    steps++;
    await new Promise<void>(r => setImmediate(r));
  }
  return { deleted, steps };
}

function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    try { db.exec('ROLLBACK'); } catch { /* already ended */ }
    throw err;
  }
}
