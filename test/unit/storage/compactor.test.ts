// Time-based compaction: the compactor keeps `retentionMs` of history, using the write time
// the SQLite backend stores with every row; the log really shrinks.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Storage } from '../../../src/storage/interface.ts';
import { startCompactor } from '../../../src/storage/compactor.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-compactor-'));
after(() => rm(dir, { recursive: true, force: true }));
const enc = (s: string) => new TextEncoder().encode(s);
const minute = 60_000;

function rowsIn(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try { return Number((db.prepare('SELECT COUNT(*) AS n FROM kv').get() as { n: number }).n); } finally { db.close(); }
}

test('compacts to the newest revision older than the retention, keeping live keys', async () => {
  const path = join(dir, 'timed.db');
  let clock = 1_000_000;
  const s = await openSqliteStorage({ path, now: () => clock });
  // minute 0..9: one key updated every minute, another created and deleted
  let kv = await s.create('/c/a', enc('0'));
  const revAt: number[] = [kv.modRevision];
  for (let m = 1; m < 10; m++) {
    clock += minute;
    kv = await s.update('/c/a', enc(String(m)), kv.modRevision);
    revAt.push(kv.modRevision);
    if (m === 2) { await s.create('/c/gone', enc('x')); await s.delete('/c/gone'); }
  }
  const c = startCompactor(s, { intervalMs: 3_600_000, retentionMs: 5 * minute, now: () => clock });
  try {
    // now = minute 9; kept: everything written after minute 4
    const target = await c.runOnce();
    assert.equal(target, revAt[3], 'the newest revision written before now - retention');
    assert.equal(await s.compactedRevision(), revAt[3]);
    assert.equal(new TextDecoder().decode((await s.get('/c/a', { revision: revAt[3] })).kv!.value), '3');
    assert.equal((await s.get('/c/a')).kv!.modRevision, revAt[9]);
    assert.equal((await s.get('/c/gone')).kv, undefined);
    // nothing new became old enough: no second compaction
    assert.equal(await c.runOnce(), revAt[3]);
  } finally {
    c.stop();
    await s.close();
  }
  // rows 0..2 of /c/a and both rows of /c/gone are gone; 3..9 of /c/a remain
  assert.equal(rowsIn(path), 7);
});

test('a backend without write times is compacted to a revision sampled one retention ago', async () => {
  let clock = 0;
  let compactedTo = 0;
  let rev = 10;
  const fake = {
    currentRevision: async () => rev,
    compactedRevision: async () => compactedTo,
    compact: async (r: number) => { compactedTo = r; },
  } as unknown as Storage;
  const c = startCompactor(fake, { intervalMs: 3_600_000, retentionMs: 5 * minute, now: () => clock });
  try {
    assert.equal(await c.runOnce(), 0, 'no sample is old enough yet');
    clock += 3 * minute; rev = 20;
    assert.equal(await c.runOnce(), 0);
    clock += 3 * minute; rev = 30;
    assert.equal(await c.runOnce(), 10, 'the sample from six minutes ago');
    assert.equal(compactedTo, 10);
    clock += 3 * minute; rev = 40;
    assert.equal(await c.runOnce(), 20);
  } finally {
    c.stop();
  }
});

test('compaction of a long log runs in steps and keeps the newest row of every live key', async () => {
  const path = join(dir, 'long.db');
  const s = await openSqliteStorage({ path });
  const keys = 300;
  const latest = new Map<string, number>();
  for (let round = 0; round < 40; round++) {
    const kvs = await Promise.all(Array.from({ length: keys }, (_, i) => {
      const key = `/l/${i}`;
      return round === 0 ? s.create(key, enc('0')) : s.update(key, enc(String(round)), latest.get(key)!);
    }));
    for (const kv of kvs) latest.set(kv.key, kv.modRevision);
  }
  const to = await s.currentRevision();
  await s.compact(to);
  const r = await s.range('/l/', '/l0');
  assert.equal(r.count, keys);
  for (const kv of r.kvs) assert.equal(kv.modRevision, latest.get(kv.key));
  await s.close();
  assert.equal(rowsIn(path), keys, 'only the newest row of each key is left');
});
