// Watches through the watch cache: resuming, slow and failing watchers, history the cache no
// longer holds, and progress notifications.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { StorageError, type WatchEvent } from '../../../src/storage/interface.ts';
import { collect, counting, enc, openInner, removeTemp, revisions, until } from './support/cacher-helpers.ts';

after(removeTemp);

const P = '/registry/pods/';
const code = (e: unknown) => (e instanceof StorageError ? e.code : undefined);
const shape = (evs: WatchEvent[]) => evs.map(e => `${e.type} ${e.kv.key}@${e.kv.modRevision} prev=${e.prevKv?.modRevision ?? '-'}`);

test('a watch resumed from a mid revision gets exactly the later events, from the cache', async () => {
  const inner = await openInner();
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage);
  await cache.ready(P);
  const revs: number[] = [];
  for (let i = 0; i < 20; i++) {
    revs.push((await cache.create(`${P}ns${i % 3}/p${i}`, enc(String(i)))).modRevision);
    await cache.create(`/registry/nodes/n${i}`, enc('other resource'));
  }
  await cache.delete(`${P}ns1/p4`);
  const mid = revs[9]!;
  const mine = collect(cache, P, mid);
  const theirs = collect(inner, P, mid);
  const ns = collect(cache, `${P}ns2/`, mid);
  await cache.create(`${P}ns2/late`, enc('live'));
  await until(() => mine.events.length === 12 && theirs.events.length === 12 && ns.events.length === 4);
  assert.deepEqual(shape(mine.events), shape(theirs.events));
  assert.deepEqual(shape(ns.events), shape(theirs.events.filter(e => e.kv.key.startsWith(`${P}ns2/`))));
  assert.equal(mine.events[10]!.type, 'delete');
  assert.equal(calls.watch, 1, 'only the cache feed watches the backend');
  for (const c of [mine, theirs, ns]) c.watcher.cancel();
  // a cancelled watcher gets nothing more
  await cache.create(`${P}ns2/after-cancel`, enc('x'));
  await new Promise(r => setTimeout(r, 20));
  assert.equal(mine.events.length, 12);
  await cache.close();
});

test('a slow watcher is ended without holding up writers or other watchers', async () => {
  const inner = await openInner();
  const cache = createCacher(inner, { watcherQueue: 50 });
  await cache.ready(P);
  const start = await inner.currentRevision();
  let slowError: Error | undefined;
  let slowBatches = 0;
  cache.watch(P, {
    afterRevision: start,
    // a consumer that never finishes its first batch (a stuck connection)
    onEvents: () => { slowBatches++; return new Promise<void>(() => {}) as unknown as void; },
    onError: e => { slowError = e; },
  });
  let thrownError: Error | undefined;
  cache.watch(P, { afterRevision: start, onEvents: () => { throw new Error('consumer bug'); }, onError: e => { thrownError = e; } });
  const fast = [collect(cache, P, start), collect(cache, P, start), collect(cache, `${P}b/`, start)];
  const t0 = Date.now();
  // rounds of concurrent writes, so each backend batch stays below the queue bound
  for (let round = 0; round < 10; round++) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => {
      const i = round * 20 + j;
      return cache.create(`${P}${i % 2 ? 'a' : 'b'}/p${i}`, enc(String(i)));
    }));
    await new Promise(r => setImmediate(r));
  }
  assert.ok(Date.now() - t0 < 2000, 'writes were not held up');
  await until(() => fast[0]!.events.length === 200 && fast[1]!.events.length === 200 && fast[2]!.events.length === 100);
  await until(() => slowError !== undefined && thrownError !== undefined);
  assert.equal(code(slowError), 'unavailable');
  assert.match(slowError!.message, /too slow/);
  assert.equal(thrownError!.message, 'consumer bug');
  assert.equal(slowBatches, 1);
  for (const f of fast) {
    assert.equal(f.error, undefined);
    const r = revisions(f.events);
    assert.deepEqual(r, [...r].sort((a, b) => a - b));
  }
  const st = cache.stats();
  assert.equal(st.slowWatchersEnded, 1);
  assert.equal(st.watchers, 3, 'the ended watchers are gone');
  await cache.close();
});

test('a watcher that returns promises is paced, and still sees everything in order', async () => {
  const inner = await openInner();
  const cache = createCacher(inner);
  await cache.ready(P);
  const start = await inner.currentRevision();
  const seen: number[] = [];
  let inFlight = 0;
  let overlap = false;
  cache.watch(P, {
    afterRevision: start,
    onEvents: async evs => {
      if (inFlight++) overlap = true;
      await new Promise(r => setTimeout(r, 2));
      seen.push(...revisions(evs));
      inFlight--;
    },
    onError: () => {},
  });
  for (let i = 0; i < 50; i++) await cache.create(`${P}x/p${i}`, enc(String(i)));
  await until(() => seen.length === 50);
  assert.equal(overlap, false, 'one batch at a time');
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
  await cache.close();
});

test('history older than the cache holds is answered by the backend, compacted history refused', async () => {
  const inner = await openInner();
  const { storage, calls } = counting(inner);
  const cache = createCacher(storage, { historyEvents: 5 });
  await cache.ready(P);
  const from = await inner.currentRevision();
  let last = 0;
  for (let i = 0; i < 20; i++) last = (await cache.create(`${P}a/p${i}`, enc(String(i)))).modRevision;
  const old = collect(cache, P, from + 2);
  await until(() => old.events.length === 18);
  assert.equal(calls.watch, 2, 'the old watch went to the backend');
  assert.deepEqual(revisions(old.events), Array.from({ length: 18 }, (_, i) => from + 3 + i));
  const recent = collect(cache, P, last - 3);
  await until(() => recent.events.length === 3);
  assert.equal(calls.watch, 2, 'a recent one is served from the cache');
  assert.equal(cache.stats().fallbackWatches, 1);

  await cache.compact(last - 1);
  const gone = collect(cache, P, from + 1);
  await until(() => gone.error !== undefined);
  assert.equal(code(gone.error), 'compacted');
  for (const c of [old, recent]) c.watcher.cancel();
  await cache.close();
});

test('progress: idle watchers learn the cache moved on, and on request', async () => {
  const inner = await openInner();
  const cache = createCacher(inner, { progressIntervalMs: 30 });
  await cache.ready(P);
  const start = await inner.currentRevision();
  const w = collect(cache, P, start);
  const noProgress = collect(cache, P, start, { onProgress: undefined });
  await cache.create(`${P}a/p`, enc('mine'));
  let other = 0;
  for (let i = 0; i < 3; i++) other = (await cache.create(`/registry/secrets/a/s${i}`, enc('x'))).modRevision;
  await until(() => w.progress.includes(other), 2000, 'periodic progress');
  assert.equal(w.events.length, 1);
  assert.ok(w.progress.every(r => r > start), 'no progress without movement');
  // the progress never comes before an event it covers
  assert.ok(w.progress[0]! >= w.events[0]!.kv.modRevision);
  const count = w.progress.length;
  await new Promise(r => setTimeout(r, 100));
  assert.equal(w.progress.length, count, 'nothing moved, nothing sent');
  w.watcher.requestProgress!();
  await until(() => w.progress.length === count + 1, 2000, 'requested progress');
  assert.equal(w.progress[count], other);
  assert.equal(noProgress.events.length, 1);
  await cache.close();
});

test('a resumed watch may replay more history than the queue bound, in one batch', async () => {
  const inner = await openInner();
  const cache = createCacher(inner, { watcherQueue: 10, historyEvents: 100 });
  await cache.ready(P);
  const start = await inner.currentRevision();
  for (let i = 0; i < 30; i++) await cache.create(`${P}a/p${i}`, enc(String(i)));
  const w = collect(cache, P, start);
  await until(() => w.events.length === 30);
  await cache.create(`${P}a/live`, enc('x'));
  await until(() => w.events.length === 31);
  assert.equal(w.error, undefined);
  assert.equal(cache.stats().slowWatchersEnded, 0);
  await assert.rejects(cache.ready(`${P}a/`), /not a resource prefix/);
  assert.throws(() => createCacher(inner, { prefixes: ['/registry/'] }), /not a resource prefix/);
  await cache.close();
});

test('when the backend stream breaks, watchers end and the cache reloads on next use', async () => {
  const inner = await openInner();
  const feeds: Array<(err: Error) => void> = [];
  const { storage } = counting(inner);
  const breakable = { ...storage, watch: (p: string, o: Parameters<typeof storage.watch>[1]) => { feeds.push(o.onError); return storage.watch(p, o); } };
  const cache = createCacher(breakable);
  await cache.ready(P);
  await cache.create(`${P}a/one`, enc('1'));
  const w = collect(cache, P, await inner.currentRevision());
  await until(() => cache.stats().watchers === 1);
  feeds[0]!(new StorageError('unavailable', 'backend connection lost'));
  await until(() => w.error !== undefined);
  assert.match(w.error!.message, /connection lost/);
  assert.equal(cache.stats().resets, 1);
  assert.deepEqual(cache.stats().prefixes, []);
  await inner.create(`${P}a/two`, enc('2'));
  const list = await cache.range(P, P.slice(0, -1) + '0');
  assert.deepEqual(list.kvs.map(kv => kv.key), [`${P}a/one`, `${P}a/two`]);
  assert.equal(feeds.length, 2, 'a new stream was opened');
  assert.equal(cache.stats().prefixes.length, 1);
  await cache.close();
});
