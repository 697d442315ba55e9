// Restoring a snapshot made by `orch backup` into a data dir, as `etcdutl snapshot restore
// --bump-revision --mark-compacted` does for etcd: the revision jumps ahead of anything a client
// may have seen from the lost database, and everything before it counts as compacted, so
// informers and watch caches get 410 Gone and list again instead of mixing two histories.

import { closeSync, fsyncSync, openSync } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { layoutVersion } from './schema.ts';

export interface RestoreResult {
  /** the revision the restored database continues from */
  revision: number;
  /** where the database that was there before is kept, if there was one */
  previous?: string;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

function pragma(db: DatabaseSync, sql: string): unknown {
  return Object.values(db.prepare(sql).get() as object)[0];
}

/** throws, saying why, unless `path` is a readable orch database */
export function verifySnapshot(path: string): void {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (err) {
    throw new Error(`${path} cannot be opened: ${(err as Error).message}`);
  }
  try {
    const check = pragma(db, 'PRAGMA quick_check');
    if (check !== 'ok') throw new Error(`${path} is damaged: ${String(check)}`);
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map(t => t.name));
    if (!['kv', 'live', 'meta'].every(t => tables.has(t))) throw new Error(`${path} is not an orch snapshot (it has no kv, live and meta tables)`);
    const version = Number(pragma(db, 'PRAGMA user_version'));
    if (version > layoutVersion) throw new Error(`${path} has data file layout ${version}, newer than this program understands (${layoutVersion})`);
  } catch (err) {
    if (/file is not a database/.test((err as Error).message)) throw new Error(`${path} is not an orch snapshot (not an SQLite database)`);
    throw err;
  } finally {
    db.close();
  }
}

/** throws when another process (a running server) holds the database */
function assertNotInUse(path: string): void {
  const db = new DatabaseSync(path, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode=EXCLUSIVE');
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } catch (err) {
    if (/locked|busy/i.test((err as Error).message)) throw new Error(`${path} is in use by another process: stop the server first`);
    throw err;
  } finally {
    db.close();
  }
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

export async function restoreSnapshot(from: string, to: string, bumpRevision: number, now = new Date()): Promise<RestoreResult> {
  verifySnapshot(from);
  const had = await exists(to);
  if (had) assertNotInUse(to);
  const staging = `${to}.restoring`;
  await rm(staging, { force: true });
  await copyFile(from, staging);
  let revision: number;
  const db = new DatabaseSync(staging);
  try {
    db.exec('PRAGMA journal_mode=DELETE');
    db.exec('BEGIN IMMEDIATE');
    const seq = Number((db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'kv'`).get() as { seq: number } | undefined)?.seq ?? 0);
    revision = seq + bumpRevision;
    // INSERT OR REPLACE: a database that never had a write has no sequence row yet
    db.prepare(`DELETE FROM sqlite_sequence WHERE name = 'kv'`).run();
    db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES ('kv', ?)`).run(revision);
    if (bumpRevision > 0) db.prepare(`INSERT INTO meta (k, v) VALUES ('compacted', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`).run(revision);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  syncPath(staging);
  let previous: string | undefined;
  if (had) {
    previous = `${to}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await rename(to, previous);
    if (await exists(`${to}-wal`)) await rename(`${to}-wal`, `${previous}-wal`);
  }
  await rename(staging, to);
  syncPath(dirname(to));
  return { revision, previous };
}
