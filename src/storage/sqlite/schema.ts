// The SQLite file layout and how it is opened.
//
// `kv` is a log of every write, as in k3s' kine: the autoincrement id is the global revision,
// a delete is a row too (it keeps the deleted value so a watcher can be given prevKv without
// looking further back), and every row carries the wall-clock time of its commit so that the
// compactor can turn "keep five minutes" into a revision. `live` points at the newest row of
// each existing key: reads of the present, counts and CAS checks touch only live keys instead
// of scanning history (bench/sqlite-choice.ts measures both layouts).

import { createPrivateFile } from '../../pki/private-files.ts';
import { DatabaseSync } from 'node:sqlite';
import { StorageError } from '../interface.ts';

/** bumped when the layout changes in a way an older file must be migrated for */
export const layoutVersion = 1;

const schemaSql = `
CREATE TABLE IF NOT EXISTS kv (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB NOT NULL,
  written_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kv_name_id ON kv (name, id);
CREATE TABLE IF NOT EXISTS live (name TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v INTEGER NOT NULL) WITHOUT ROWID;
`;

/** one row of `kv` as node:sqlite returns it */
export interface Row {
  id: number;
  name: string;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: Uint8Array;
  written_at: number;
}

/**
 * 'full' syncs the WAL after every commit before the commit's writes are acknowledged: an
 * acknowledged write survives a crash of the machine, not only of the process. SQLite itself
 * runs at synchronous=NORMAL (it syncs only around checkpoints) and the backend makes that
 * per-commit sync on a worker thread (see store.ts), so the event loop never waits on the disk.
 * 'normal' leaves out the per-commit sync: an acknowledged write survives kill -9 (the
 * committed pages are in the OS cache) but a power loss may take the newest commits.
 */
export type SyncMode = 'full' | 'normal';

/** bytes a WAL is cut back to after a checkpoint */
export const walSizeLimit = 16 * 1024 * 1024;

/**
 * A file made before files shrank (auto_vacuum NONE) is rewritten once with VACUUM, which is
 * what switches the mode on a file that has tables; it runs outside any transaction.
 */
function convertToIncrementalVacuum(db: DatabaseSync): void {
  const mode = Number((db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum);
  if (mode !== 2) db.exec('VACUUM');
}

export function openDatabase(path: string): DatabaseSync {
  // SQLite gives its WAL the database file's mode, so both are owner-only from the start
  try { createPrivateFile(path); } catch (err) { throw new StorageError('unavailable', `cannot open storage file ${path}: ${(err as Error).message}`); }
  const db = new DatabaseSync(path, { timeout: 2000 });
  try {
    // EXCLUSIVE before the first access: the process holds the file for as long as it is open
    // (the backend caches the revision and newest rows, which is exact only for a sole
    // writer), and WAL then keeps its index in process memory instead of a -shm file
    // first of all: it takes effect only while the file has no tables yet (older files are
    // converted below); compaction then hands freed pages back to the file system
    db.exec('PRAGMA auto_vacuum=INCREMENTAL');
    db.exec('PRAGMA locking_mode=EXCLUSIVE');
    db.exec('PRAGMA journal_mode=WAL');
    db.exec('PRAGMA synchronous=NORMAL');
    // a checkpoint that resets the WAL truncates it to this, so a burst does not leave it large
    db.exec(`PRAGMA journal_size_limit=${walSizeLimit}`);
    // take the write lock now, so a second process fails at open rather than at its first write
    db.exec('BEGIN IMMEDIATE');
    db.exec(schemaSql);
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (version > layoutVersion) throw new Error(`data file layout ${version} is newer than this program understands (${layoutVersion})`);
    if (version < layoutVersion) db.exec(`PRAGMA user_version=${layoutVersion}`);
    db.exec('COMMIT');
    convertToIncrementalVacuum(db);
  } catch (err) {
    try { db.close(); } catch { /* already unusable */ }
    const msg = (err as Error).message;
    if (/locked|busy/i.test(msg)) throw new StorageError('unavailable', `storage file ${path} is in use by another process`);
    throw new StorageError('unavailable', `cannot open storage file ${path}: ${msg}`);
  }
  return db;
}
