// Measurements behind the storage choices in docs/storage.md, on Node 24:
//   1. driver: node:sqlite versus better-sqlite3 on the backend's statements
//   2. layout: newest state from the (name, id) index alone versus a table of live rows
//   3. the backend itself: concurrent creates through group commit, synchronous FULL vs NORMAL
// better-sqlite3 is not a dependency of orch; point BETTER_SQLITE3 at an installed copy
// (`npm install better-sqlite3` in a temp dir) or it is left out.
//   node bench/sqlite-choice.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteStorage } from '../src/storage/sqlite/store.ts';

/** the part of the two drivers' APIs the bench uses (they agree on it) */
interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...a: unknown[]): unknown; get(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] };
  close(): void;
}

const dir = mkdtempSync(join(tmpdir(), 'sqlite-choice-'));
const value = Buffer.from(JSON.stringify({ metadata: { name: 'x', namespace: 'default', labels: { app: 'bench' } }, data: { k: 'v'.repeat(300) } }));
let files = 0;

function time(label: string, n: number, fn: () => void): void {
  const t0 = performance.now();
  fn();
  const ms = performance.now() - t0;
  console.log(`  ${label.padEnd(44)} ${Math.round(n / (ms / 1000)).toLocaleString('en-US').padStart(10)} ops/s`);
}

function drivers(): Array<{ name: string; open(file: string): Db }> {
  const list = [{ name: `node:sqlite ${process.version}`, open: (f: string) => new DatabaseSync(f) as unknown as Db }];
  const where = process.env.BETTER_SQLITE3;
  try {
    const Better = createRequire(import.meta.url)(where ?? 'better-sqlite3');
    const v = (createRequire(import.meta.url)(join(where ?? 'better-sqlite3', 'package.json')) as { version: string }).version;
    list.push({ name: `better-sqlite3 ${v}`, open: (f: string) => new Better(f) as Db });
  } catch {
    console.log('(better-sqlite3 not found: set BETTER_SQLITE3=/path/to/node_modules/better-sqlite3 to compare)');
  }
  return list;
}

function driverBench(name: string, db: Db): void {
  console.log(`${name}, sqlite ${(db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v}`);
  db.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;');
  db.exec(`CREATE TABLE kv (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, deleted INTEGER NOT NULL, value BLOB NOT NULL);
    CREATE INDEX kv_name_id ON kv (name, id);`);
  const insert = db.prepare('INSERT INTO kv (name, deleted, value) VALUES (?, 0, ?)');
  const point = db.prepare('SELECT * FROM kv WHERE name = ? ORDER BY id DESC LIMIT 1');
  const range = db.prepare('SELECT * FROM kv WHERE name >= ? AND name < ? ORDER BY name LIMIT ?');
  time('durable insert, one transaction each (FULL)', 1000, () => { for (let i = 0; i < 1000; i++) insert.run(`/a/${i}`, value); });
  db.exec('PRAGMA synchronous=NORMAL');
  time('insert, one transaction each (NORMAL)', 2000, () => { for (let i = 0; i < 2000; i++) insert.run(`/n/${i}`, value); });
  db.exec('PRAGMA synchronous=FULL');
  time('insert, 100 per transaction (FULL)', 20000, () => {
    for (let b = 0; b < 200; b++) {
      db.exec('BEGIN');
      for (let i = 0; i < 100; i++) insert.run(`/b/${String(b * 100 + i).padStart(6, '0')}`, value);
      db.exec('COMMIT');
    }
  });
  time('point read (newest row of a key)', 50000, () => { for (let i = 0; i < 50000; i++) point.get(`/a/${i % 1000}`); });
  time('range of 1k rows', 200, () => { for (let i = 0; i < 200; i++) range.all('/b/', '/b0', 1000); });
  time('range of 10k rows', 20, () => { for (let i = 0; i < 20; i++) range.all('/b/', '/b0', 10000); });
}

/** 10k keys with 10 versions each: how the newest state is read, with and without `live` */
function layoutBench(): void {
  console.log('layout (node:sqlite), 10k keys x 10 versions');
  const db = new DatabaseSync(join(dir, `layout${files++}.db`));
  db.exec(`PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
    CREATE TABLE kv (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, deleted INTEGER NOT NULL, value BLOB NOT NULL);
    CREATE INDEX kv_name_id ON kv (name, id);
    CREATE TABLE live (name TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;`);
  const ins = db.prepare('INSERT INTO kv (name, deleted, value) VALUES (?, 0, ?)');
  const setLive = db.prepare('INSERT INTO live (name, id) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET id = excluded.id');
  const key = (i: number) => `/k/${String(i).padStart(5, '0')}`;
  time('write: log row only, 100 per transaction', 50000, () => {
    for (let v = 0; v < 5; v++) for (let b = 0; b < 100; b++) {
      db.exec('BEGIN');
      for (let i = 0; i < 100; i++) ins.run(key(b * 100 + i), value);
      db.exec('COMMIT');
    }
  });
  time('write: log row + live row, 100 per transaction', 50000, () => {
    for (let v = 0; v < 5; v++) for (let b = 0; b < 100; b++) {
      db.exec('BEGIN');
      for (let i = 0; i < 100; i++) setLive.run(key(b * 100 + i), Number(ins.run(key(b * 100 + i), value).lastInsertRowid));
      db.exec('COMMIT');
    }
  });
  const getIdx = db.prepare('SELECT * FROM kv WHERE name = ? ORDER BY id DESC LIMIT 1');
  const getLive = db.prepare('SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name = ?');
  const rangeIdx = db.prepare('SELECT * FROM kv WHERE id IN (SELECT MAX(id) FROM kv WHERE name >= ? AND name < ? GROUP BY name) AND deleted = 0 ORDER BY name LIMIT ?');
  const rangeLive = db.prepare('SELECT kv.* FROM live JOIN kv ON kv.id = live.id WHERE live.name >= ? AND live.name < ? ORDER BY live.name LIMIT ?');
  const countIdx = db.prepare('SELECT COUNT(*) FROM kv WHERE id IN (SELECT MAX(id) FROM kv WHERE name >= ? AND name < ? GROUP BY name) AND deleted = 0');
  const countLive = db.prepare('SELECT COUNT(*) FROM live WHERE name >= ? AND name < ?');
  time('get newest: (name, id) index', 50000, () => { for (let i = 0; i < 50000; i++) getIdx.get(key(i % 10000)); });
  time('get newest: live join', 50000, () => { for (let i = 0; i < 50000; i++) getLive.get(key(i % 10000)); });
  time('range 1k of 10k keys: (name, id) index', 100, () => { for (let i = 0; i < 100; i++) rangeIdx.all('/k/', '/k0', 1000); });
  time('range 1k of 10k keys: live join', 100, () => { for (let i = 0; i < 100; i++) rangeLive.all('/k/', '/k0', 1000); });
  time('count 10k keys: (name, id) index', 100, () => { for (let i = 0; i < 100; i++) countIdx.get('/k/', '/k0'); });
  time('count 10k keys: live', 100, () => { for (let i = 0; i < 100; i++) countLive.get('/k/', '/k0'); });
  db.close();
}

async function backendBench(sync: 'full' | 'normal', concurrency: number): Promise<void> {
  const s = await openSqliteStorage({ path: join(dir, `backend${files++}.db`), synchronous: sync });
  const total = 4000;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) await s.create(`/registry/configmaps/default/cm-${next++}`, value);
  }));
  const ms = performance.now() - t0;
  const st = s.commitStats();
  console.log(`  ${`creates, ${concurrency} concurrent, ${sync.toUpperCase()}`.padEnd(44)} ${Math.round(total / (ms / 1000)).toLocaleString('en-US').padStart(10)} ops/s  (${(st.writes / st.batches).toFixed(1)} writes per commit)`);
  await s.close();
}

for (const d of drivers()) {
  const db = d.open(join(dir, `driver${files++}.db`));
  driverBench(d.name, db);
  db.close();
}
layoutBench();
console.log('the backend (group commit)');
for (const c of [1, 8, 64]) for (const sync of ['full', 'normal'] as const) await backendBench(sync, c);
rmSync(dir, { recursive: true, force: true });
