// Every SQL statement the backend runs, prepared once, behind typed methods.

import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Row } from './schema.ts';
import type { HistoryRow } from './rows.ts';

/** the newest row per key at or below a revision, among the keys of [start, end) */
const newestAt = `SELECT MAX(id) FROM kv WHERE name >= ?1 AND name < ?2 AND id <= ?3 GROUP BY name`;

export class Queries {
  private s: Record<
    'sequence' | 'live' | 'at' | 'rangeLive' | 'countLive' | 'rangeAt' | 'countAt' | 'insert' | 'setLive' | 'delLive' |
    'history' | 'getMeta' | 'setMeta' | 'revisionBefore' | 'minId' | 'compactChunk',
    StatementSync
  >;

  constructor(db: DatabaseSync) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      sequence: p(`SELECT seq FROM sqlite_sequence WHERE name = 'kv'`),
      live: p(`SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name = ?`),
      at: p(`SELECT * FROM kv WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1`),
      rangeLive: p(`SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name >= ? AND live.name < ? ORDER BY live.name LIMIT ?`),
      countLive: p(`SELECT COUNT(*) AS n FROM live WHERE name >= ? AND name < ?`),
      rangeAt: p(`SELECT * FROM kv WHERE id IN (${newestAt}) AND deleted = 0 ORDER BY name LIMIT ?4`),
      countAt: p(`SELECT COUNT(*) AS n FROM kv WHERE id IN (${newestAt}) AND deleted = 0`),
      // the id is chosen by the backend (it is the only writer), so a create knows its own
      // createRevision without a second statement
      insert: p(`INSERT INTO kv (id, name, deleted, create_revision, prev_revision, value, written_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
      setLive: p(`INSERT INTO live (name, id) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET id = excluded.id`),
      delLive: p(`DELETE FROM live WHERE name = ?`),
      // walk the log by revision (the primary key) and filter names: a watch resumes from a
      // recent revision, so the id range is the narrow side; `+` keeps the planner off kv_name_id
      history: p(`SELECT kv.*, p.value AS prev_value, p.create_revision AS prev_create_revision
        FROM kv LEFT JOIN kv p ON p.id = kv.prev_revision AND kv.deleted = 0
        WHERE kv.id > ?1 AND kv.id <= ?2 AND +kv.name >= ?3 AND +kv.name < ?4 ORDER BY kv.id LIMIT ?5`),
      getMeta: p(`SELECT v FROM meta WHERE k = ?`),
      setMeta: p(`INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`),
      // scans back from the newest row only as far as the retention window reaches
      revisionBefore: p(`SELECT id FROM kv WHERE written_at < ? ORDER BY id DESC LIMIT 1`),
      minId: p(`SELECT MIN(id) AS id FROM kv`),
      // rows of [lo, hi) that a read at ?3 no longer needs: superseded at or below ?3, or
      // deletes (the key was absent at ?3, and its older rows go in the same pass)
      compactChunk: p(`DELETE FROM kv WHERE id >= ?1 AND id < ?2 AND (deleted = 1 OR EXISTS (
        SELECT 1 FROM kv newer WHERE newer.name = kv.name AND newer.id > kv.id AND newer.id <= ?3))`),
    };
  }

  /** the last revision ever assigned (kept by AUTOINCREMENT even when its row is compacted) */
  sequence(): number {
    return Number((this.s.sequence.get() as { seq: number } | undefined)?.seq ?? 0);
  }

  live(key: string): Row | undefined {
    return this.s.live.get(key) as Row | undefined;
  }

  at(key: string, revision: number): Row | undefined {
    return this.s.at.get(key, revision) as Row | undefined;
  }

  /** `limit` < 0 means all */
  range(start: string, end: string, revision: number | undefined, limit: number): Row[] {
    return (revision === undefined ? this.s.rangeLive.all(start, end, limit) : this.s.rangeAt.all(start, end, revision, limit)) as unknown as Row[];
  }

  count(start: string, end: string, revision: number | undefined): number {
    const r = (revision === undefined ? this.s.countLive.get(start, end) : this.s.countAt.get(start, end, revision)) as { n: number };
    return Number(r.n);
  }

  insert(r: Row): void {
    this.s.insert.run(r.id, r.name, r.deleted, r.create_revision, r.prev_revision, r.value, r.written_at);
  }

  setLive(key: string, id: number): void {
    this.s.setLive.run(key, id);
  }

  delLive(key: string): void {
    this.s.delLive.run(key);
  }

  history(after: number, upTo: number, start: string, end: string, limit: number): HistoryRow[] {
    return this.s.history.all(after, upTo, start, end, limit) as unknown as HistoryRow[];
  }

  getMeta(k: string): number | undefined {
    const r = this.s.getMeta.get(k) as { v: number } | undefined;
    return r === undefined ? undefined : Number(r.v);
  }

  setMeta(k: string, v: number): void {
    this.s.setMeta.run(k, v);
  }

  revisionBefore(ms: number): number {
    return Number((this.s.revisionBefore.get(ms) as { id: number } | undefined)?.id ?? 0);
  }

  minId(): number {
    return Number((this.s.minId.get() as { id: number | null }).id ?? 0);
  }

  compactChunk(lo: number, hi: number, to: number): number {
    return Number(this.s.compactChunk.run(lo, hi, to).changes);
  }
}
