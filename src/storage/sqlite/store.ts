// The embedded backend: one SQLite file through node:sqlite, a log of every write (see
// schema.ts), group commit for writes (group-commit.ts), in-process fan-out for watches
// (watch-hub.ts). The process holds the file exclusively, so the current revision and the
// newest rows of recently used keys are kept in memory and are always exact.

import { closeSync, fsync, openSync } from 'node:fs';
import { backup, DatabaseSync } from 'node:sqlite';
import type { Logger } from '../../api/log.ts';
import { StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchEvent, type WatchOptions, type Watcher } from '../interface.ts';
import { compactLog } from './compaction.ts';
import { fileSizes, shrinkFiles, type FileSizes } from './file-upkeep.ts';
import { GroupCommit } from './group-commit.ts';
import { Queries } from './queries.ts';
import { RecentRows } from './recent-rows.ts';
import { deleteEvent, rowEvent, toKv } from './rows.ts';
import { openDatabase, type Row, type SyncMode } from './schema.ts';
import { WatchHub } from './watch-hub.ts';
import { checkValueSize } from '../value-limit.ts';

export interface SqliteOptions {
  /** the database file; created with its schema when absent */
  path: string;
  log?: Logger;
  /** wall clock for the write time of each row (tests of time-based compaction set it) */
  now?: () => number;
  /** 'full' (default): an acknowledged write survives power loss too; see docs/storage.md */
  synchronous?: SyncMode;
  /** undelivered events after which a slow watcher is ended (default 200,000) */
  watchQueueLimit?: number;
}

/** the SQLite backend's extras beyond the contract */
export interface SqliteStorage extends Storage {
  /** the newest revision written before wall-clock time `ms` (0 when none) */
  revisionBefore(ms: number): number;
  /** transactions committed and writes in them since open */
  commitStats(): { batches: number; writes: number };
  /** the sizes of the database and its WAL */
  fileSizes(): FileSizes;
  /**
   * A consistent copy of the database at `dest` (SQLite's online backup), taken while writes
   * go on; resolves to the revision the copy holds.
   */
  backup(dest: string): Promise<{ revision: number }>;
}

type Op =
  | { kind: 'create'; key: string; value: Uint8Array }
  | { kind: 'update'; key: string; value: Uint8Array; expected: number }
  | { kind: 'delete'; key: string; expected?: number };

/** sorts after every key made of valid characters: the open end of a prefix '' */
const topKey = '\u{10FFFF}';

function rangeEndOf(prefix: string): string {
  return prefix === '' ? topKey : prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export async function openSqliteStorage(opts: SqliteOptions): Promise<SqliteStorage> {
  return new SqliteBackend(opts);
}

class SqliteBackend implements SqliteStorage {
  private db: DatabaseSync;
  private q: Queries;
  private log?: Logger;
  private now: () => number;
  private recent = new RecentRows();
  private writer: GroupCommit<Op>;
  private hub: WatchHub;
  /** the newest committed revision */
  private rev: number;
  /** the revision the open transaction has reached */
  private txRev = 0;
  private txAt = 0;
  private txEvents: WatchEvent[] = [];
  private compacted: number;
  private compacting: Promise<unknown> = Promise.resolve();
  private closed = false;
  private path: string;
  private walPath: string;
  /** the WAL, opened at the first commit that syncs it */
  private walFd: number | undefined;
  private syncEachCommit: boolean;
  /** a commit has returned and waits for its sync: reads stay at the acknowledged revision */
  private unacknowledged = false;

  constructor(opts: SqliteOptions) {
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
    this.db = openDatabase(opts.path);
    this.path = opts.path;
    this.walPath = `${opts.path}-wal`;
    this.syncEachCommit = (opts.synchronous ?? 'full') === 'full';
    this.q = new Queries(this.db);
    this.rev = this.q.sequence();
    this.compacted = this.q.getMeta('compacted') ?? 0;
    this.hub = new WatchHub({
      history: (prefix, after, upTo, limit) => this.q.history(after, upTo, prefix, rangeEndOf(prefix), limit).map(rowEvent),
      compacted: () => this.compacted,
      current: () => this.rev,
    }, { maxQueued: opts.watchQueueLimit });
    this.writer = new GroupCommit<Op>({
      begin: () => {
        this.db.exec('BEGIN IMMEDIATE');
        this.txRev = this.rev;
        this.txAt = this.now();
        this.txEvents = [];
      },
      apply: op => this.apply(op),
      commit: () => {
        this.db.exec('COMMIT');
        if (this.syncEachCommit) return this.syncWal();
      },
      rollback: () => this.db.exec('ROLLBACK'),
      committed: () => {
        this.unacknowledged = false;
        this.rev = this.txRev;
        this.recent.commitStaged();
        this.hub.publish(this.txEvents);
        this.txEvents = [];
      },
      aborted: err => {
        this.recent.dropStaged();
        this.txEvents = [];
        this.log?.error('storage transaction failed', { err: String(err) });
      },
      syncFailed: err => {
        // the file now holds a commit nobody was told of: only a restart reads it back right
        this.log?.error('storage sync failed; the server must be restarted', { err: String(err) });
        this.closed = true;
        this.hub.closeAll(new StorageError('unavailable', 'storage sync failed'));
      },
    });
    this.log?.info('storage opened', { path: opts.path, revision: this.rev, compacted: this.compacted });
  }

  async currentRevision(): Promise<number> { return this.rev; }
  async compactedRevision(): Promise<number> { return this.compacted; }
  revisionBefore(ms: number): number { return this.q.revisionBefore(ms); }
  commitStats(): { batches: number; writes: number } { return { ...this.writer.stats }; }
  fileSizes(): FileSizes { this.assertOpen(); return fileSizes(this.db, this.path); }

  backup(dest: string): Promise<{ revision: number }> {
    this.assertOpen();
    // the copy is taken in steps on this connection; SQLite carries writes made between steps
    // into it, so it ends as one committed state, whose revision the copy itself records
    const run = this.compacting.then(async () => {
      await backup(this.db, dest, { rate: 1024 });
      const copy = new DatabaseSync(dest);
      try {
        // a plain single file, readable without its WAL beside it
        copy.exec('PRAGMA journal_mode=DELETE');
        return { revision: new Queries(copy).sequence() };
      } finally {
        copy.close();
      }
    });
    this.compacting = run.catch(() => {});
    return run;
  }

  /**
   * The committed WAL written to disk, through the thread pool. Until it is, the commit is in
   * the file but not acknowledged, so reads are pinned to the acknowledged revision.
   */
  private syncWal(): Promise<void> {
    this.unacknowledged = true;
    try {
      this.walFd ??= openSync(this.walPath, 'r');
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => fsync(this.walFd!, err => (err ? reject(err) : resolve())));
  }

  /** the revision a read is served at; throws for compacted and future revisions */
  private readRevision(revision: number | undefined): number | undefined {
    this.assertOpen();
    if (!revision) return this.unacknowledged ? this.rev : undefined;
    if (revision < this.compacted) throw new StorageError('compacted', `required revision ${revision} has been compacted`, { revision: this.compacted });
    if (revision > this.rev) throw new StorageError('future-revision', `required revision ${revision} is a future revision`, { revision: this.rev });
    return revision;
  }

  async get(key: string, opts?: { revision?: number }): Promise<{ kv?: KeyValue; revision: number }> {
    const at = this.readRevision(opts?.revision);
    const row = at === undefined ? this.current(key) : this.q.at(key, at);
    return { kv: row && !row.deleted ? toKv(row) : undefined, revision: at ?? this.rev };
  }

  async range(start: string, end: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const at = this.readRevision(opts.revision);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    // one row past the limit tells whether there are more
    const rows = this.q.range(start, end, at, limit ? limit + 1 : -1);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const count = more ? this.q.count(start, end, at) : rows.length;
    return { kvs: rows.map(toKv), revision: at ?? this.rev, more, count };
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    try { checkValueSize(key, value); } catch (err) { return Promise.reject(err); }
    return this.submit({ kind: 'create', key, value }) as Promise<KeyValue>;
  }

  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    try { checkValueSize(key, value); } catch (err) { return Promise.reject(err); }
    return this.submit({ kind: 'update', key, value, expected: expectedModRevision }) as Promise<KeyValue>;
  }

  delete(key: string, expectedModRevision?: number): Promise<{ prevKv: KeyValue; revision: number }> {
    return this.submit({ kind: 'delete', key, expected: expectedModRevision }) as Promise<{ prevKv: KeyValue; revision: number }>;
  }

  private submit(op: Op): Promise<unknown> {
    if (this.closed) return Promise.reject(new StorageError('unavailable', 'storage is closed'));
    return this.writer.submit(op);
  }

  /** the committed newest row of a key, through the cache */
  private current(key: string): Row | undefined {
    const hit = this.recent.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const row = this.q.live(key);
    this.recent.remember(key, row ?? null);
    return row;
  }

  /** one write inside the group transaction; checks come before any row is written */
  private apply(op: Op): unknown {
    const staged = this.recent.getForWrite(op.key);
    const cur = staged === undefined ? this.current(op.key) : staged ?? undefined;
    const id = this.txRev + 1;
    if (op.kind === 'create') {
      if (cur) throw new StorageError('key-exists', `key already exists: ${op.key}`, { current: toKv(cur) });
      const row: Row = { id, name: op.key, deleted: 0, create_revision: id, prev_revision: 0, value: op.value, written_at: this.txAt };
      this.write(row);
      const kv = toKv(row);
      this.txEvents.push({ type: 'put', kv });
      return kv;
    }
    if (!cur) throw new StorageError('not-found', `key not found: ${op.key}`);
    const prevKv = toKv(cur);
    if (op.expected !== undefined && op.expected !== cur.id) {
      throw new StorageError('conflict', `modRevision of ${op.key} is ${cur.id}, not ${op.expected}`, { current: prevKv });
    }
    if (op.kind === 'update') {
      const row: Row = { id, name: op.key, deleted: 0, create_revision: cur.create_revision, prev_revision: cur.id, value: op.value, written_at: this.txAt };
      this.write(row);
      const kv = toKv(row);
      this.txEvents.push({ type: 'put', kv, prevKv });
      return kv;
    }
    this.write({ id, name: op.key, deleted: 1, create_revision: cur.create_revision, prev_revision: cur.id, value: cur.value, written_at: this.txAt });
    this.txEvents.push(deleteEvent(prevKv, id));
    return { prevKv, revision: id };
  }

  private write(row: Row): void {
    this.q.insert(row);
    if (row.deleted) this.q.delLive(row.name);
    else this.q.setLive(row.name, row.id);
    this.recent.stage(row.name, row.deleted ? null : row);
    this.txRev = row.id;
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    if (this.closed) {
      queueMicrotask(() => opts.onError(new StorageError('unavailable', 'storage is closed')));
      return { cancel() {} };
    }
    return this.hub.add(prefix, opts);
  }

  compact(revision: number): Promise<void> {
    this.assertOpen();
    const run = this.compacting.then(async () => {
      const to = Math.min(revision, this.rev);
      if (to <= this.compacted || this.closed) return;
      const t0 = performance.now();
      const r = await compactLog(this.db, this.q, to, () => { this.compacted = to; });
      const shrunk = await shrinkFiles(this.db, () => !this.closed);
      this.log?.info('storage compacted', { revision: to, rowsDeleted: r.deleted, pagesFreed: shrunk.pagesFreed, ms: Math.round(performance.now() - t0) });
    });
    this.compacting = run.catch(() => {});
    return run;
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try {
      this.q.sequence();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // writes already submitted still commit; compaction finishes its step
    await this.writer.idle();
    this.closed = true;
    await this.compacting;
    this.hub.closeAll(new StorageError('unavailable', 'storage closed'));
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('unavailable', 'storage is closed');
  }
}
