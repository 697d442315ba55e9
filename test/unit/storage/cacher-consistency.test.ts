// The watch cache under a write storm: every watcher sees exactly the backend's own history
// for its prefix, and every cached read equals the backend's read at the same revision.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { prefixEnd, StorageError, type KeyValue, type RangeResult, type Storage, type WatchEvent } from '../../../src/storage/interface.ts';
import { collect, counting, enc, openInner, removeTemp, revisions, until, type Collected } from './support/cacher-helpers.ts';

after(removeTemp);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const shape = (kvs: KeyValue[]) => kvs.map(kv => `${kv.key}@${kv.modRevision}/${kv.createRevision}`);
const same = (a: RangeResult, b: RangeResult, what: string) => {
  assert.deepEqual(shape(a.kvs), shape(b.kvs), what);
  assert.equal(a.count, b.count, `${what}: count`);
  assert.equal(a.more, b.more, `${what}: more`);
};
const eventShape = (evs: WatchEvent[]) => evs.map(e => `${e.type} ${e.kv.key}@${e.kv.modRevision} prev=${e.prevKv?.modRevision ?? '-'}`);

/** one writer: creates, CAS updates and deletes on random keys, through the cache */
async function writer(s: Storage, random: () => number, ops: number): Promise<number> {
  let done = 0;
  for (let i = 0; i < ops; i++) {
    const ns = `ns${Math.floor(random() * 4)}`;
    const key = random() < 0.15 ? `/registry/services/${ns}/svc${Math.floor(random() * 5)}` : `/registry/pods/${ns}/p${Math.floor(random() * 12)}`;
    try {
      const { kv } = await s.get(key);
      const roll = random();
      if (!kv) await s.create(key, enc(`c${i}`));
      else if (roll < 0.25) await s.delete(key, kv.modRevision);
      else await s.update(key, enc(`u${i}`), kv.modRevision);
      done++;
    } catch (err) {
      // lost races are part of a storm; anything else is a failure
      if (!(err instanceof StorageError) || !['conflict', 'key-exists', 'not-found'].includes(err.code)) throw err;
    }
  }
  return done;
}

test('write storm: watchers see the backend history exactly once and in order; reads match the backend', async () => {
  const inner = await openInner();
  const { storage: spied, calls } = counting(inner);
  const history = collect(inner, '/registry/', 0);
  for (let i = 0; i < 30; i++) await inner.create(`/registry/pods/ns${i % 4}/p${i}x`, enc('seed'));
  await inner.create('/registry/services/ns1/svc0', enc('seed'));
  const cache = createCacher(spied, { historyEvents: 100_000 });
  await cache.ready('/registry/pods/');

  const start = await inner.currentRevision();
  const watchers: Array<{ prefix: string; c: Collected; after: number }> = [];
  for (const prefix of ['/registry/pods/', '/registry/pods/', '/registry/pods/ns1/', '/registry/pods/ns2/', '/registry/services/']) {
    watchers.push({ prefix, c: collect(cache, prefix, start), after: start });
  }

  const random = rng(42);
  const storm = Promise.all(Array.from({ length: 16 }, (_, i) => writer(cache, rng(1000 + i), 60)));
  // reads during the storm: newest lists, served from the cache, equal the backend at the same revision
  const checks: Array<Promise<void>> = [];
  let midWatcher: { prefix: string; c: Collected; after: number } | undefined;
  for (let round = 0; round < 20; round++) {
    await new Promise(r => setTimeout(r, 3));
    const ns = `ns${Math.floor(random() * 4)}`;
    const [startKey, endKey] = round % 2 ? ['/registry/pods/', prefixEnd('/registry/pods/')] : [`/registry/pods/${ns}/`, prefixEnd(`/registry/pods/${ns}/`)];
    const limit = round % 3 === 0 ? 3 : undefined;
    const mine = await cache.range(startKey, endKey, { limit });
    checks.push(inner.range(startKey, endKey, { limit, revision: mine.revision }).then(theirs => same(mine, theirs, `round ${round} at ${mine.revision}`)));
    if (round === 10) {
      const at = mine.revision;
      midWatcher = { prefix: '/registry/pods/', c: collect(cache, '/registry/pods/', at), after: at };
    }
  }
  const writes = (await storm).reduce((a, b) => a + b, 0);
  await Promise.all(checks);
  assert.ok(writes > 300, `enough successful writes (${writes})`);

  const end = await inner.currentRevision();
  await until(() => history.events.length > 0 && history.events[history.events.length - 1]!.kv.modRevision === end, 5000, 'backend history');
  const all = [...watchers, midWatcher!];
  for (const w of all) {
    const expected = history.events.filter(e => e.kv.key.startsWith(w.prefix) && e.kv.modRevision > w.after);
    await until(() => w.c.events.length >= expected.length, 5000, `watcher on ${w.prefix}`);
    await new Promise(r => setTimeout(r, 20)); // any extra (duplicate) event would show up now
    assert.equal(w.c.error, undefined);
    assert.deepEqual(eventShape(w.c.events), eventShape(expected), `watcher on ${w.prefix} after ${w.after}`);
    const revs = revisions(w.c.events);
    assert.deepEqual(revs, [...new Set(revs)].sort((a, b) => a - b), 'strictly increasing revisions');
  }

  // the newest lists above never reached the backend; only the initial loads did
  assert.equal(calls.range, 2, 'the backend saw only the two cache loads (pods, services)');
  assert.equal(calls.get, 0, 'point reads came from the cache');
  assert.equal(calls.watch, 1, 'one backend watch feeds every prefix');
  const st = cache.stats();
  assert.equal(st.fallbackWatches, 0);
  for (const w of all) w.c.watcher.cancel();
  history.watcher.cancel();
  await cache.close();
});

test('two caches on one backend: a write through one is seen by a consistent read through the other', async () => {
  const inner = await openInner();
  const a = createCacher(inner);
  const b = createCacher(inner);
  await a.ready('/registry/configmaps/');
  await b.ready('/registry/configmaps/');
  for (let i = 0; i < 20; i++) {
    const kv = await a.create(`/registry/configmaps/default/cm${i}`, enc(String(i)));
    const seen = await b.get(`/registry/configmaps/default/cm${i}`);
    assert.equal(seen.kv?.modRevision, kv.modRevision, `write ${i} visible through the other cache`);
  }
  const list = await b.range('/registry/configmaps/', prefixEnd('/registry/configmaps/'));
  assert.equal(list.count, 20);
  assert.equal(list.revision, await inner.currentRevision());
  await a.close();
  await b.close().catch(() => {});
});
