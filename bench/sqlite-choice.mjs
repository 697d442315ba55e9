// node:sqlite versus better-sqlite3 on orch's storage workload. Plain JavaScript so that any
// Node can run it: better-sqlite3 is a native addon built for one Node ABI, and this machine
// can only build it for the system Node 20 (no Node 24 headers can be fetched here).
//   node24 bench/sqlite-choice.mjs node:sqlite
//   node20 bench/sqlite-choice.mjs better-sqlite3 /path/to/node_modules/better-sqlite3
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const [driver = 'node:sqlite', modulePath] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'sqlite-choice-'));
const file = join(dir, 'db.sqlite');
let db;
if (driver === 'node:sqlite') {
  const { DatabaseSync } = await import('node:sqlite');
  db = new DatabaseSync(file);
} else {
  const Database = createRequire(import.meta.url)(modulePath ?? 'better-sqlite3');
  db = new Database(file);
}
db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;');
db.exec('CREATE TABLE kv (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, value BLOB NOT NULL); CREATE INDEX kv_name ON kv (name, id);');
const insert = db.prepare('INSERT INTO kv (name, value) VALUES (?, ?)');
const point = db.prepare('SELECT * FROM kv WHERE name = ? ORDER BY id DESC LIMIT 1');
const range = db.prepare('SELECT * FROM kv WHERE name >= ? AND name < ? ORDER BY name LIMIT ?');
const value = Buffer.from(JSON.stringify({ metadata: { name: 'x', namespace: 'default' }, data: { k: 'v'.repeat(300) } }));

function time(label, n, fn) {
  const t0 = performance.now();
  fn();
  const ms = performance.now() - t0;
  console.log(`${driver.padEnd(15)} ${label.padEnd(34)} ${(n / (ms / 1000)).toFixed(0).padStart(9)} ops/s  (${ms.toFixed(1)} ms for ${n})`);
}

time('durable insert, one txn each', 2000, () => { for (let i = 0; i < 2000; i++) insert.run(`/a/${i}`, value); });
time('insert, 100 per txn (group commit)', 20000, () => {
  for (let b = 0; b < 200; b++) {
    db.exec('BEGIN');
    for (let i = 0; i < 100; i++) insert.run(`/b/${String(b * 100 + i).padStart(6, '0')}`, value);
    db.exec('COMMIT');
  }
});
time('point read', 50000, () => { for (let i = 0; i < 50000; i++) point.get(`/a/${i % 2000}`); });
time('range of 1k rows', 200, () => { for (let i = 0; i < 200; i++) range.all('/b/', '/b0', 1000); });
time('range of 10k rows', 20, () => { for (let i = 0; i < 20; i++) range.all('/b/', '/b0', 10000); });
db.close();
rmSync(dir, { recursive: true, force: true });
