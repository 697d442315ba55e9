// Reads through the watch cache: snapshots at past revisions, waiting for future ones, and
// handing to the backend whatever the cache no longer holds.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { prefixEnd, StorageError, type KeyValue, type RangeResult, type Storage } from '../../../src/storage/interface.ts';
import { counting, enc, openInner, removeTemp } from './support/cacher-helpers.ts';

after(removeTemp);

const P = '/registry/pods/';
const shape = (kvs: KeyValue[]) => kvs.map(kv => `${kv.key}@${kv.modRevision}`);
const code = (e: unknown) => (e instanceof StorageError ? e.code : undefined);
function same(a: RangeResult, b: RangeResult, what: string): void {
  assert.deepEqual(shape(a.kvs), shape(b.kvs), what);
  assert.equal(a.count, b.count, `${what}: count`);
  assert.equal(a.more, b.more, `${what}: more`);
  assert.equal(a.revision, b.revision, `${what}: revision`);
}

/** creates, updates and deletes in two namespaces, interleaved with another resource */
async function churn(s: Storage, rounds: number, tag = ''): Promise<void> {
  const live = new Map<string, number>();
  for (let i = 0; i < rounds; i++) {
    const key = `${P}ns${i % 2}/p${i % 7}${tag}`;
    const rev = live.get(key);
    if (rev === undefined) live.set(key, (await s.create(key, enc(`v${i}`))).modRevision);
    else if (i % 5 === 0) { await s.delete(key, rev); live.delete(key); }
    else live.set(key, (await s.update(key, enc(`v${i}`), rev)).modRevision);
    if (i % 4 === 0) await s.create(`/registry/services/default/s${i}${tag}`, enc('x'));
  }
}

test('reads at every revision in the window equal the backend, without asking it', async () => {
  const inner = await openInner();
  await inner.create(`${P}ns0/before`, enc('x'));
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage);
  await cache.ready(P);
  const from = await inner.currentRevision();
  await churn(cache, 60);
  const to = await inner.currentRevision();
  const backendRanges = calls.range;
  for (let rev = from; rev <= to; rev++) {
    for (const [start, end, limit] of [[P, prefixEnd(P), 0], [P, prefixEnd(P), 2], [`${P}ns1/`, prefixEnd(`${P}ns1/`), 0], [`${P}ns0/p3\x00`, prefixEnd(`${P}ns0/`), 1]] as const) {
      const mine = await cache.range(start, end, { revision: rev, limit });
      const theirs = await inner.range(start, end, { revision: rev, limit });
      same(mine, theirs, `${start} limit ${limit} at ${rev}`);
    }
    const g = await cache.get(`${P}ns1/p1`, { revision: rev });
    const h = await inner.get(`${P}ns1/p1`, { revision: rev });
    assert.equal(g.kv?.modRevision, h.kv?.modRevision, `get at ${rev}`);
    assert.equal(g.revision, rev);
  }
  assert.equal(calls.range, backendRanges, 'every read came from the cache');
  assert.equal(cache.stats().fallbackReads, 0);
  await cache.close();
});

test('a future revision is waited for, then refused with future-revision', async () => {
  const inner = await openInner();
  const cache = createCacher(inner, { freshWaitMs: 300 });
  await cache.create(`${P}a/x`, enc('1'));
  const now = await inner.currentRevision();
  const t0 = Date.now();
  await assert.rejects(cache.range(P, prefixEnd(P), { revision: now + 5 }), (e: unknown) => code(e) === 'future-revision');
  assert.ok(Date.now() - t0 >= 280, 'it waited before refusing');
  // a write that arrives during the wait satisfies it
  const pending = cache.range(P, prefixEnd(P), { revision: now + 1 });
  await new Promise(r => setTimeout(r, 50));
  await cache.create(`${P}a/y`, enc('2'));
  const res = await pending;
  assert.equal(res.revision, now + 1);
  assert.deepEqual(res.kvs.map(kv => kv.key), [`${P}a/x`, `${P}a/y`]);
  await cache.close();
});

test('revisions older than the held events go to the backend, and compacted ones are refused', async () => {
  const inner = await openInner();
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage, { historyEvents: 5 });
  await cache.ready(P);
  const from = await inner.currentRevision();
  await churn(cache, 30);
  const floor = cache.stats().prefixes.find(p => p.prefix === P)!.floor;
  assert.ok(floor > from, 'old events were dropped');
  const before = calls.range;
  const old = await cache.range(P, prefixEnd(P), { revision: from + 3 });
  same(old, await inner.range(P, prefixEnd(P), { revision: from + 3 }), 'old read');
  assert.equal(calls.range, before + 1, 'served by the backend');
  assert.equal(cache.stats().fallbackReads, 1);
  const recent = await cache.range(P, prefixEnd(P), { revision: floor });
  same(recent, await inner.range(P, prefixEnd(P), { revision: floor }), 'read at the floor');
  assert.equal(calls.range, before + 1, 'the read at the floor came from the cache');

  const at = (await inner.currentRevision()) - 2;
  await cache.compact(at);
  await assert.rejects(cache.range(P, prefixEnd(P), { revision: at - 1 }), (e: unknown) => code(e) === 'compacted');
  await assert.rejects(cache.get(`${P}ns0/p0`, { revision: at - 1 }), (e: unknown) => code(e) === 'compacted');
  same(await cache.range(P, prefixEnd(P), { revision: at }), await inner.range(P, prefixEnd(P), { revision: at }), 'read at the compacted revision');
  await cache.close();
});

test('events older than the window stop serving snapshots', async () => {
  let clock = 1_000_000;
  const inner = await openInner();
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage, { eventWindowMs: 75_000, now: () => clock });
  await cache.ready(P);
  await churn(cache, 10);
  const mid = await inner.currentRevision();
  clock += 60_000;
  await churn(cache, 10, 'b');
  const before = calls.range;
  await cache.range(P, prefixEnd(P), { revision: mid });
  assert.equal(calls.range, before, 'within the window: from the cache');
  clock += 30_000; // the first batch is now 90 s old, the second 30 s
  same(await cache.range(P, prefixEnd(P), { revision: mid - 1 }), await inner.range(P, prefixEnd(P), { revision: mid - 1 }), 'aged-out read');
  assert.equal(calls.range, before + 1, 'past the window: from the backend');
  await cache.range(P, prefixEnd(P), { revision: mid });
  assert.equal(calls.range, before + 1, 'the newer half is still served from the cache');
  await cache.close();
});

test('ranges that span resources, and prefixes left out, go straight to the backend', async () => {
  const inner = await openInner();
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage, { prefixes: [P] });
  await cache.ready(P);
  await cache.create(`${P}a/x`, enc('1'));
  await cache.create('/registry/secrets/a/s', enc('2'));
  const base = calls.range;
  assert.equal((await cache.range('/registry/', prefixEnd('/registry/'))).count, 2);
  assert.equal((await cache.get('/registry/secrets/a/s')).kv?.key, '/registry/secrets/a/s');
  assert.equal(calls.range, base + 1);
  assert.equal(calls.get, 1);
  assert.equal((await cache.get(`${P}a/x`)).kv?.key, `${P}a/x`);
  assert.equal(calls.get, 1, 'the cached prefix answers itself');
  assert.deepEqual(cache.stats().prefixes.map(p => p.prefix), [P]);
  await cache.close();
});
