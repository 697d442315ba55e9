// The embedded backend: node:sqlite in WAL mode with synchronous=FULL. Concurrent writes that
// arrive in the same turn of the event loop commit in one transaction (group commit), each
// settling on its own; events go to watchers after the commit, in revision order.

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Logger } from '../../api/log.ts';
import { StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchEvent, type WatchOptions, type Watcher } from '../interface.ts';
import { schemaSql, type Row } from './schema.ts';
import { WatchHub } from './watch-hub.ts';

type Op =
  | { kind: 'create'; key: string; value: Uint8Array }
  | { kind: 'update'; key: string; value: Uint8Array; expected: number }
  | { kind: 'delete'; key: string; expected?: number };

interface Pending { op: Op; resolve(v: unknown): void; reject(e: unknown): void }

const empty = new Uint8Array(0);

function toKv(r: Row): KeyValue {
  return { key: r.name, value: r.value, createRevision: r.create_revision, modRevision: r.id };
}

export interface SqliteOptions { path: string; log?: Logger; now?: () => number }

export async function openSqliteStorage(opts: SqliteOptions): Promise<Storage> {
  return new SqliteStorage(opts);
}

class SqliteStorage implements Storage {
  private db: DatabaseSync;
  private hub = new WatchHub();
  private queue: Pending[] = [];
  /** rows written by the transaction in progress; they reach `recent` only after COMMIT */
  private pendingRows = new Map<string, Row | null>();
  private flushScheduled = false;
  private closed = false;
  private now: () => number;
  private compacted: number;
  private s: Record<string, StatementSync>;

  constructor(opts: SqliteOptions) {
    this.now = opts.now ?? Date.now;
    this.db = new DatabaseSync(opts.path);
    this.db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=5000;');
    this.db.exec(schemaSql);
    const p = (sql: string) => this.db.prepare(sql);
    this.s = {
      rev: p(`SELECT COALESCE(MAX(id), 0) AS r FROM kv`),
      getLive: p(`SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name = ?`),
      getAt: p(`SELECT * FROM kv WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1`),
      rangeLive: p(`SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name >= ? AND live.name < ? ORDER BY live.name LIMIT ?`),
      countLive: p(`SELECT COUNT(*) AS n FROM live WHERE name >= ? AND name < ?`),
      rangeAt: p(`SELECT kv.* FROM kv JOIN (SELECT MAX(id) AS mid FROM kv WHERE name >= ? AND name < ? AND id <= ? GROUP BY name) m ON kv.id = m.mid WHERE kv.deleted = 0 ORDER BY kv.name LIMIT ?`),
      countAt: p(`SELECT COUNT(*) AS n FROM kv JOIN (SELECT MAX(id) AS mid FROM kv WHERE name >= ? AND name < ? AND id <= ? GROUP BY name) m ON kv.id = m.mid WHERE kv.deleted = 0`),
      insert: p(`INSERT INTO kv (name, deleted, create_revision, prev_revision, value, written_at) VALUES (?, ?, ?, ?, ?, ?)`),
      setCreateRev: p(`UPDATE kv SET create_revision = id WHERE id = ?`),
      setLive: p(`INSERT INTO live (name, id) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET id = excluded.id`),
      delLive: p(`DELETE FROM live WHERE name = ?`),
      byId: p(`SELECT * FROM kv WHERE id = ?`),
      history: p(`SELECT * FROM kv WHERE id > ? AND name >= ? AND name < ? ORDER BY id`),
      getMeta: p(`SELECT v FROM meta WHERE k = ?`),
      setMeta: p(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`),
      revBefore: p(`SELECT COALESCE(MAX(id), 0) AS r FROM kv WHERE written_at < ?`),
      compactSuperseded: p(`DELETE FROM kv WHERE id < ?1 AND EXISTS (SELECT 1 FROM kv k2 WHERE k2.name = kv.name AND k2.id > kv.id AND k2.id <= ?1)`),
      compactDeleted: p(`DELETE FROM kv WHERE id < ?1 AND deleted = 1`),
    };
    this.compacted = Number((this.s.getMeta!.get('compacted') as { v: number } | undefined)?.v ?? 0);
    this.rev = Number((this.s.rev!.get() as { r: number }).r);
  }

  /** the newest revision; this process is the only writer, so it is kept in memory */
  private rev = 0;

  private revision(): number {
    return this.rev;
  }

  private checkRevision(rev: number | undefined): number {
    const current = this.revision();
    if (!rev) return current;
    if (rev < this.compacted) throw new StorageError('compacted', `required revision ${rev} has been compacted`, { revision: this.compacted });
    if (rev > current) throw new StorageError('future-revision', `required revision ${rev} is a future revision`, { revision: current });
    return rev;
  }

  async currentRevision(): Promise<number> { return this.revision(); }
  async compactedRevision(): Promise<number> { return this.compacted; }

  /** the newest revision written before a wall-clock time (for time-based compaction) */
  revisionBefore(ms: number): number {
    return Number((this.s.revBefore!.get(ms) as { r: number }).r);
  }

  /** newest rows of recently used keys; this process is the only writer, so it stays exact */
  private recent = new Map<string, Row | null>();
  private static recentMax = 20_000;

  private live(key: string): Row | undefined {
    const hit = this.recent.get(key);
    if (hit !== undefined) {
      this.recent.delete(key);
      this.recent.set(key, hit);
      return hit ?? undefined;
    }
    const row = this.s.getLive!.get(key) as Row | undefined;
    this.remember(key, row ?? null);
    return row;
  }

  private remember(key: string, row: Row | null): void {
    this.recent.delete(key);
    this.recent.set(key, row);
    if (this.recent.size > SqliteStorage.recentMax) this.recent.delete(this.recent.keys().next().value!);
  }

  async get(key: string, opts?: { revision?: number }): Promise<{ kv?: KeyValue; revision: number }> {
    const revision = this.checkRevision(opts?.revision);
    const row = opts?.revision ? this.s.getAt!.get(key, revision) as Row | undefined : this.live(key);
    return { kv: row && !row.deleted ? toKv(row) : undefined, revision: opts?.revision ? revision : this.revision() };
  }

  async range(start: string, end: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const revision = this.checkRevision(opts.revision);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : -1;
    const fetch = limit > 0 ? limit + 1 : -1;
    let rows: Row[];
    let count: number;
    if (opts.revision) {
      rows = this.s.rangeAt!.all(start, end, revision, fetch) as unknown as Row[];
      count = Number((this.s.countAt!.get(start, end, revision) as { n: number }).n);
    } else {
      rows = this.s.rangeLive!.all(start, end, fetch) as unknown as Row[];
      count = Number((this.s.countLive!.get(start, end) as { n: number }).n);
    }
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    return { kvs: rows.map(toKv), revision, more, count };
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> { return this.enqueue({ kind: 'create', key, value }) as Promise<KeyValue>; }
  update(key: string, value: Uint8Array, expected: number): Promise<KeyValue> { return this.enqueue({ kind: 'update', key, value, expected }) as Promise<KeyValue>; }
  delete(key: string, expected?: number): Promise<{ prevKv: KeyValue; revision: number }> {
    return this.enqueue({ kind: 'delete', key, expected }) as Promise<{ prevKv: KeyValue; revision: number }>;
  }

  private enqueue(op: Op): Promise<unknown> {
    if (this.closed) return Promise.reject(new StorageError('unavailable', 'storage is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** one transaction for every queued write; results settle only after COMMIT */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    const events: WatchEvent[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
      const at = this.now();
      for (const p of batch) {
        try {
          outcomes.push({ ok: true, value: this.apply(p.op, at, events) });
        } catch (err) {
          outcomes.push({ ok: false, value: err });
        }
      }
      this.db.exec('COMMIT');
      this.rev = Number((this.s.rev!.get() as { r: number }).r);
      for (const [k, row] of this.pendingRows) this.remember(k, row);
      this.pendingRows.clear();
    } catch (err) {
      this.pendingRows.clear();
      try { this.db.exec('ROLLBACK'); } catch { /* not in a transaction */ }
      for (const p of batch) p.reject(new StorageError('unavailable', `storage write failed: ${(err as Error).message}`));
      return;
    }
    batch.forEach((p, i) => (outcomes[i]!.ok ? p.resolve(outcomes[i]!.value) : p.reject(outcomes[i]!.value)));
    this.hub.publish(events);
  }

  private apply(op: Op, at: number, events: WatchEvent[]): unknown {
    const cur = this.pendingRows.has(op.key) ? this.pendingRows.get(op.key) ?? undefined : this.live(op.key);
    if (op.kind === 'create') {
      if (cur) throw new StorageError('key-exists', `key exists: ${op.key}`, { current: toKv(cur) });
      const id = Number(this.s.insert!.run(op.key, 0, 0, 0, op.value, at).lastInsertRowid);
      this.s.setCreateRev!.run(id);
      this.s.setLive!.run(op.key, id);
      this.pendingRows.set(op.key, { id, name: op.key, deleted: 0, create_revision: id, prev_revision: 0, value: op.value, written_at: at });
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: id, modRevision: id };
      events.push({ type: 'put', kv });
      return kv;
    }
    if (!cur) throw new StorageError('not-found', `key not found: ${op.key}`);
    const prevKv = toKv(cur);
    if (op.expected !== undefined && op.expected !== cur.id) throw new StorageError('conflict', `revision mismatch for ${op.key}`, { current: prevKv });
    if (op.kind === 'update') {
      const id = Number(this.s.insert!.run(op.key, 0, cur.create_revision, cur.id, op.value, at).lastInsertRowid);
      this.s.setLive!.run(op.key, id);
      this.pendingRows.set(op.key, { id, name: op.key, deleted: 0, create_revision: cur.create_revision, prev_revision: cur.id, value: op.value, written_at: at });
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: cur.create_revision, modRevision: id };
      events.push({ type: 'put', kv, prevKv });
      return kv;
    }
    const id = Number(this.s.insert!.run(op.key, 1, cur.create_revision, cur.id, cur.value, at).lastInsertRowid);
    this.s.delLive!.run(op.key);
    this.pendingRows.set(op.key, null);
    events.push({ type: 'delete', kv: { key: op.key, value: empty, createRevision: cur.create_revision, modRevision: id }, prevKv });
    return { prevKv, revision: id };
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    if (opts.afterRevision + 1 < this.compacted) {
      const err = new StorageError('compacted', `required revision ${opts.afterRevision + 1} has been compacted`, { revision: this.compacted });
      queueMicrotask(() => opts.onError(err));
      return { cancel() {} };
    }
    // history and subscription happen in one synchronous step: no commit can fall between them
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = this.s.history!.all(opts.afterRevision, prefix, end) as unknown as Row[];
    const backlog = rows.map(r => this.eventOf(r));
    const entry = this.hub.add(prefix, opts, backlog);
    return { cancel: () => this.hub.remove(entry) };
  }

  private eventOf(r: Row): WatchEvent {
    const prev = r.prev_revision ? this.s.byId!.get(r.prev_revision) as Row | undefined : undefined;
    const prevKv = prev ? toKv(prev) : undefined;
    if (r.deleted) {
      return { type: 'delete', kv: { key: r.name, value: empty, createRevision: r.create_revision, modRevision: r.id }, prevKv: prevKv ?? { key: r.name, value: r.value, createRevision: r.create_revision, modRevision: r.prev_revision } };
    }
    return { type: 'put', kv: toKv(r), prevKv };
  }

  async compact(revision: number): Promise<void> {
    if (revision <= this.compacted) return;
    const current = this.revision();
    const to = Math.min(revision, current);
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.s.compactSuperseded!.run(to);
      this.s.compactDeleted!.run(to);
      this.s.setMeta!.run('compacted', to);
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
    this.compacted = to;
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try { this.s.rev!.get(); return true; } catch { return false; }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // let queued writes commit first
    while (this.queue.length || this.flushScheduled) await new Promise(r => setImmediate(r));
    this.closed = true;
    this.hub.closeAll(new StorageError('unavailable', 'storage closed'));
    this.db.close();
  }
}
