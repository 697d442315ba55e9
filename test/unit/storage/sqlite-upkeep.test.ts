// The SQLite files stay bounded: compaction hands pages back and truncates the WAL; a file from
// before that is converted on open; an online backup is one consistent state; a compactor that
// keeps failing shows in its check.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startCompactor } from '../../../src/storage/compactor.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import type { Storage } from '../../../src/storage/interface.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-upkeep-'));
after(() => rm(dir, { recursive: true, force: true }));
const enc = (s: string) => new TextEncoder().encode(s);
const value = (i: number) => enc(JSON.stringify({ i, pad: 'x'.repeat(2000) }));

test('compaction gives the pages of superseded revisions back: the database and its WAL shrink', async () => {
  const path = join(dir, 'churn.db');
  const s = await openSqliteStorage({ path, synchronous: 'normal' });
  try {
    // 50 leases renewed 100 times each: 5,000 revisions of 2 KB, of which 50 stay live
    const revs = new Map<string, number>();
    for (let i = 0; i < 50; i++) revs.set(`/leases/l${i}`, (await s.create(`/leases/l${i}`, value(0))).modRevision);
    for (let round = 1; round < 100; round++) {
      await Promise.all([...revs].map(async ([k, rev]) => revs.set(k, (await s.update(k, value(round), rev)).modRevision)));
    }
    const before = s.fileSizes();
    assert.ok(before.database + before.wal > 8_000_000, `grew first: ${JSON.stringify(before)}`);
    await s.compact(await s.currentRevision());
    const afterCompaction = s.fileSizes();
    assert.equal(afterCompaction.wal, 0, 'the WAL is truncated');
    assert.equal(afterCompaction.freePages, 0, 'no free pages left inside the file');
    assert.ok(afterCompaction.database < 1_000_000, `the file shrank to the live data: ${JSON.stringify(afterCompaction)}`);
    // the live keys are intact and writes go on
    const { kvs } = await s.range('/leases/', '/leases0');
    assert.equal(kvs.length, 50);
    assert.equal(JSON.parse(new TextDecoder().decode(kvs[0]!.value)).i, 99);
    await s.update('/leases/l0', value(100), revs.get('/leases/l0')!);
  } finally {
    await s.close();
  }
});

test('leases renewed every second under the default compaction: the files stop growing', async () => {
  // the bench's churn (bench/support/lease-churn.ts) in simulated time: 20 leases renewed each
  // second for 15 minutes, the compactor every 5 minutes keeping 5 minutes
  const path = join(dir, 'leases.db');
  let clock = 0;
  const s = await openSqliteStorage({ path, synchronous: 'normal', now: () => clock });
  const c = startCompactor(s, { intervalMs: 3_600_000, retentionMs: 5 * 60_000, now: () => clock });
  try {
    const revs = new Map<string, number>();
    for (let i = 0; i < 20; i++) revs.set(`/leases/l${i}`, (await s.create(`/leases/l${i}`, value(0))).modRevision);
    const afterCompaction: number[] = [];
    for (let second = 1; second <= 15 * 60; second++) {
      clock += 1000;
      await Promise.all([...revs].map(async ([k, rev]) => revs.set(k, (await s.update(k, value(second), rev)).modRevision)));
      if (second % 300 === 0) {
        await c.runOnce();
        const f = s.fileSizes();
        afterCompaction.push(f.database + f.wal);
      }
    }
    // after the first compaction the history held is the same each time, so are the files
    const [, second, third] = afterCompaction;
    assert.ok(third! <= second! * 1.1, `no growth between compactions: ${afterCompaction.join(', ')}`);
    // five minutes of 20 writes/s of 2 KB is 12 MB; with pages and index at most twice that
    assert.ok(third! < 2 * 5 * 60 * 20 * 2100, `bounded: ${afterCompaction.join(', ')}`);
  } finally {
    c.stop();
    await s.close();
  }
});

test('a file made before auto-vacuum is converted when opened, its data kept', async () => {
  const path = join(dir, 'old.db');
  const old = new DatabaseSync(path);
  old.exec('PRAGMA journal_mode=WAL');
  old.exec(`CREATE TABLE kv (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, deleted INTEGER NOT NULL, create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL, value BLOB NOT NULL, written_at INTEGER NOT NULL)`);
  old.prepare('INSERT INTO kv (name, deleted, create_revision, prev_revision, value, written_at) VALUES (?, 0, 1, 0, ?, 0)').run('/a', enc('kept'));
  old.exec('CREATE TABLE live (name TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID');
  old.exec(`INSERT INTO live VALUES ('/a', 1)`);
  assert.equal((old.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum, 0);
  old.close();
  const s = await openSqliteStorage({ path });
  try {
    assert.equal(new TextDecoder().decode((await s.get('/a')).kv!.value), 'kept');
  } finally {
    await s.close();
  }
  const reopened = new DatabaseSync(path, { readOnly: true });
  try {
    assert.equal((reopened.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum, 2, 'incremental');
  } finally {
    reopened.close();
  }
});

// bounded: once, under a busy machine, writes kept pace with the copy and the test ran for 13 minutes
test('an online backup taken during writes is one committed state, readable on its own', { timeout: 120_000 }, async () => {
  const path = join(dir, 'live.db');
  const s = await openSqliteStorage({ path });
  try {
    for (let i = 0; i < 300; i++) await s.create(`/cm/k${i}`, value(i));
    let writing = true;
    const writer = (async () => { for (let i = 300; writing && i < 3300; i++) await s.create(`/cm/k${i}`, value(i)); })();
    const copyPath = join(dir, 'copy.db');
    const { revision } = await s.backup(copyPath);
    writing = false;
    await writer;
    assert.ok(revision >= 300);
    await assert.rejects(stat(`${copyPath}-wal`), 'the copy is a single file');
    const copy = await openSqliteStorage({ path: copyPath });
    try {
      // every revision up to the copy's is in it, none after
      assert.equal(await copy.currentRevision(), revision);
      const { kvs } = await copy.range('/cm/', '/cm0');
      assert.equal(kvs.length, revision);
      assert.equal(Math.max(...kvs.map(kv => kv.modRevision)), revision);
    } finally {
      await copy.close();
    }
  } finally {
    await s.close();
  }
});

test('a compactor whose runs keep failing fails its check after three intervals, and recovers', async () => {
  let clock = 0;
  let fail = true;
  const storage = {
    currentRevision: async () => 10,
    compactedRevision: async () => 0,
    compact: async () => { if (fail) throw new Error('database is locked'); },
  } as unknown as Storage;
  const c = startCompactor(storage, { intervalMs: 60_000, retentionMs: 0, now: () => clock, revisionBefore: () => 5 });
  try {
    await assert.rejects(c.runOnce(), /locked/);
    c.check();
    clock = 3 * 60_000 + 1;
    await assert.rejects(c.runOnce(), /locked/);
    assert.throws(() => c.check(), /^Error: storage compaction has not succeeded for 180s: database is locked$/);
    fail = false;
    assert.equal(await c.runOnce(), 5);
    c.check();
    assert.equal(c.status().lastTarget, 5);
  } finally {
    c.stop();
  }
});
