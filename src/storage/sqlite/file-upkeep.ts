// After compaction deletes rows, their pages are only free inside the file: the files shrink
// when those pages are handed back (incremental vacuum, in steps so writes go on between them)
// and the WAL is checkpointed and truncated. Without this the database never gets smaller and
// the WAL grows with every burst, which is how k3s' SQLite files reach many gigabytes.

import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

/** pages handed back per step; each step is one short write transaction */
const pagesPerStep = 2048;

export interface FileSizes {
  /** the database file, in bytes */
  database: number;
  /** its write-ahead log, in bytes (0 when absent) */
  wal: number;
  /** pages inside the database file that hold nothing */
  freePages: number;
  pageSize: number;
}

const pragmaNumber = (db: DatabaseSync, name: string): number => Number(Object.values(db.prepare(`PRAGMA ${name}`).get() as object)[0]);

const sizeOf = (path: string): number => { try { return statSync(path).size; } catch { return 0; } };

export function fileSizes(db: DatabaseSync, path: string): FileSizes {
  return { database: sizeOf(path), wal: sizeOf(`${path}-wal`), freePages: pragmaNumber(db, 'freelist_count'), pageSize: pragmaNumber(db, 'page_size') };
}

/** hands free pages back to the file system, then checkpoints and truncates the WAL */
export async function shrinkFiles(db: DatabaseSync, isOpen: () => boolean): Promise<{ pagesFreed: number }> {
  let pagesFreed = 0;
  for (let free = pragmaNumber(db, 'freelist_count'); free > 0 && isOpen(); free = pragmaNumber(db, 'freelist_count')) {
    db.prepare(`PRAGMA incremental_vacuum(${pagesPerStep})`).all();
    pagesFreed += Math.min(free, pagesPerStep);
    await new Promise<void>(r => setImmediate(r));
  }
  // TRUNCATE copies every committed frame into the database, syncs it and empties the log;
  // the process is the file's only user, so nothing can hold the checkpoint back
  if (isOpen()) db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
  return { pagesFreed };
}
