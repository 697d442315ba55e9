// SQLite backend behaviour beyond the shared contract: group commit, watch catch-up in pages
// while writes go on, delivery that never holds up writers, exclusive use of the file.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageError, type KeyValue, type WatchEvent } from '../../../src/storage/interface.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-sqlite-unit-'));
after(() => rm(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `db${n++}.sqlite`);
const enc = (s: string) => new TextEncoder().encode(s);

test('writes of one event-loop turn commit in one transaction, in submission order', async () => {
  const s = await openSqliteStorage({ path: fresh() });
  const base = await s.create('/g/shared', enc('0'));
  const before = s.commitStats();
  const writes = [
    s.create('/g/a', enc('a')),
    s.update('/g/shared', enc('1'), base.modRevision + 100), // conflicts
    s.create('/g/b', enc('b')),
    s.update('/g/shared', enc('2'), base.modRevision),
    s.delete('/g/missing'),
    s.create('/g/a', enc('dup')), // exists by now, inside the same batch
  ];
  const results = await Promise.allSettled(writes);
  const after = s.commitStats();
  assert.equal(after.batches - before.batches, 1, 'one transaction');
  assert.deepEqual(results.map(r => r.status === 'rejected' ? (r.reason as StorageError).code : 'ok'), ['ok', 'conflict', 'ok', 'ok', 'not-found', 'key-exists']);
  const revs = results.filter(r => r.status === 'fulfilled').map(r => (r as PromiseFulfilledResult<KeyValue>).value.modRevision);
  assert.deepEqual(revs, [base.modRevision + 1, base.modRevision + 2, base.modRevision + 3], 'strictly increasing, in submission order, without holes');
  assert.equal(await s.currentRevision(), base.modRevision + 3);
  await s.close();
});

test('a watch replaying more history than one page, while writes go on, misses nothing', async () => {
  const s = await openSqliteStorage({ path: fresh() });
  const start = await s.currentRevision();
  const all: number[] = [];
  for (let b = 0; b < 25; b++) {
    const kvs = await Promise.all(Array.from({ length: 100 }, (_, i) => s.create(`/p/${b}-${i}`, enc('x'))));
    all.push(...kvs.map(kv => kv.modRevision));
    await s.create(`/elsewhere/${b}`, enc('not watched'));
  }
  const got: number[] = [];
  let calls = 0;
  s.watch('/p/', { afterRevision: start, onEvents: evs => { calls++; got.push(...evs.map(e => e.kv.modRevision)); }, onError: () => {} });
  for (let b = 0; b < 10; b++) {
    const kvs = await Promise.all(Array.from({ length: 50 }, (_, i) => s.create(`/p/live-${b}-${i}`, enc('y'))));
    all.push(...kvs.map(kv => kv.modRevision));
  }
  const deadline = Date.now() + 5000;
  while (got.length < all.length && Date.now() < deadline) await new Promise(r => setTimeout(r, 10));
  assert.deepEqual(got, all);
  assert.ok(calls >= 3, 'history came in pages');
  await s.close();
});

test('a watcher that never finishes its callback holds up neither writers nor other watchers', async () => {
  const s = await openSqliteStorage({ path: fresh() });
  const start = await s.currentRevision();
  let stuckCalls = 0;
  s.watch('/slow/', { afterRevision: start, onEvents: () => { stuckCalls++; return new Promise<void>(() => {}) as unknown as void; }, onError: () => {} });
  const fast: WatchEvent[] = [];
  s.watch('/slow/', { afterRevision: start, onEvents: e => { fast.push(...e); }, onError: () => {} });
  for (let i = 0; i < 20; i++) await s.create(`/slow/${i}`, enc(String(i)));
  await new Promise(r => setTimeout(r, 20));
  assert.equal(fast.length, 20);
  assert.equal(stuckCalls, 1, 'the stuck watcher waits on its first batch');
  await s.close();
});

test('a watcher whose queue passes the bound is ended, the writers are not', async () => {
  const s = await openSqliteStorage({ path: fresh(), watchQueueLimit: 50 });
  let err: Error | undefined;
  s.watch('/b/', { afterRevision: await s.currentRevision(), onEvents: () => new Promise<void>(() => {}) as unknown as void, onError: e => { err = e; } });
  await Promise.all(Array.from({ length: 120 }, (_, i) => s.create(`/b/${i}`, enc('x'))));
  await new Promise(r => setTimeout(r, 10));
  assert.equal((err as StorageError | undefined)?.code, 'unavailable');
  await s.close();
});

test('close commits queued writes, then ends watches; later calls fail as unavailable', async () => {
  const s = await openSqliteStorage({ path: fresh() });
  let ended: Error | undefined;
  s.watch('/z/', { afterRevision: 0, onEvents: () => {}, onError: e => { ended = e; } });
  const pending = s.create('/z/a', enc('a'));
  await s.close();
  assert.equal((await pending).key, '/z/a');
  await new Promise(r => setTimeout(r, 5));
  assert.equal((ended as StorageError).code, 'unavailable');
  await assert.rejects(s.create('/z/b', enc('b')), (e: unknown) => (e as StorageError).code === 'unavailable');
  await assert.rejects(s.get('/z/a'), (e: unknown) => (e as StorageError).code === 'unavailable');
  assert.equal(await s.healthy(), false);
});

test('a second opener of the same file is refused while the first holds it', async () => {
  const path = fresh();
  const s = await openSqliteStorage({ path });
  await assert.rejects(openSqliteStorage({ path }), (e: unknown) => (e as StorageError).code === 'unavailable' && /in use/.test((e as Error).message));
  await s.close();
  const again = await openSqliteStorage({ path });
  await again.close();
});
