// The storage contract, as one suite that every backend (and the watch cache) must pass.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prefixEnd, StorageError, type Storage, type WatchEvent } from '../../src/storage/interface.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function code(err: unknown): string | undefined {
  return err instanceof StorageError ? err.code : undefined;
}

function collect(s: Storage, prefix: string, afterRevision: number) {
  const events: WatchEvent[] = [];
  let error: Error | undefined;
  const w = s.watch(prefix, { afterRevision, onEvents: e => events.push(...e), onError: e => { error = e; } });
  return { events, get error() { return error; }, cancel: () => w.cancel() };
}

async function until(pred: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise(r => setTimeout(r, 5));
  }
}

export function storageConformance(name: string, open: () => Promise<Storage>): void {
  describe(`storage conformance: ${name}`, () => {
    test('create, get, CAS update, delete with revisions', async () => {
      const s = await open();
      const a = await s.create('/t/a', enc('1'));
      assert.equal(a.createRevision, a.modRevision);
      await assert.rejects(s.create('/t/a', enc('x')), (e: unknown) => code(e) === 'key-exists' && (e as StorageError).current?.modRevision === a.modRevision);
      const u = await s.update('/t/a', enc('2'), a.modRevision);
      assert.ok(u.modRevision > a.modRevision);
      assert.equal(u.createRevision, a.createRevision);
      await assert.rejects(s.update('/t/a', enc('3'), a.modRevision), (e: unknown) => code(e) === 'conflict' && dec((e as StorageError).current!.value) === '2');
      await assert.rejects(s.update('/t/none', enc('3'), 1), (e: unknown) => code(e) === 'not-found');
      assert.equal(dec((await s.get('/t/a')).kv!.value), '2');
      assert.equal(dec((await s.get('/t/a', { revision: a.modRevision })).kv!.value), '1', 'past revision');
      await assert.rejects(s.delete('/t/a', a.modRevision), (e: unknown) => code(e) === 'conflict');
      const d = await s.delete('/t/a', u.modRevision);
      assert.equal(dec(d.prevKv.value), '2');
      assert.ok(d.revision > u.modRevision);
      assert.equal((await s.get('/t/a')).kv, undefined);
      assert.equal(await s.currentRevision(), d.revision);
      const again = await s.create('/t/a', enc('new'));
      assert.equal(again.createRevision, again.modRevision, 'a re-create starts a new life');
      await s.close();
    });

    test('ranges: order, limit, more, count, and past revisions', async () => {
      const s = await open();
      for (const k of ['c', 'a', 'b', 'd']) await s.create(`/r/${k}`, enc(k));
      await s.create('/q/x', enc('other prefix'));
      const mid = await s.currentRevision();
      await s.delete('/r/b');
      await s.create('/r/e', enc('e'));
      const all = await s.range('/r/', prefixEnd('/r/'));
      assert.deepEqual(all.kvs.map(kv => dec(kv.value)), ['a', 'c', 'd', 'e']);
      assert.equal(all.count, 4);
      assert.equal(all.more, false);
      const page = await s.range('/r/', prefixEnd('/r/'), { limit: 2 });
      assert.deepEqual(page.kvs.map(kv => dec(kv.value)), ['a', 'c']);
      assert.equal(page.more, true);
      assert.equal(page.count, 4);
      const past = await s.range('/r/', prefixEnd('/r/'), { revision: mid });
      assert.deepEqual(past.kvs.map(kv => dec(kv.value)), ['a', 'b', 'c', 'd']);
      assert.equal(past.revision, mid);
      await assert.rejects(s.range('/r/', prefixEnd('/r/'), { revision: (await s.currentRevision()) + 10 }), (e: unknown) => code(e) === 'future-revision');
      await s.close();
    });

    test('concurrent writes: distinct revisions, and one conflict fails alone', async () => {
      const s = await open();
      const base = await s.create('/c/shared', enc('0'));
      const writes = Array.from({ length: 50 }, (_, i) => s.create(`/c/k${i}`, enc(String(i))));
      const first = s.update('/c/shared', enc('1'), base.modRevision);
      const second = s.update('/c/shared', enc('2'), base.modRevision);
      const results = await Promise.allSettled([...writes, first, second]);
      const ok = results.filter(r => r.status === 'fulfilled').map(r => (r as PromiseFulfilledResult<{ modRevision: number }>).value.modRevision);
      assert.equal(ok.length, 51, 'all creates and exactly one of the two updates');
      assert.equal(new Set(ok).size, ok.length);
      const failed = results.filter(r => r.status === 'rejected');
      assert.equal(failed.length, 1);
      assert.equal(code((failed[0] as PromiseRejectedResult).reason), 'conflict');
      await s.close();
    });

    test('watch: history then live, in order, with prevKv, resumable from any revision', async () => {
      const s = await open();
      const start = await s.currentRevision();
      const a = await s.create('/w/a', enc('1'));
      const w1 = collect(s, '/w/', start);
      const b = await s.update('/w/a', enc('2'), a.modRevision);
      await s.create('/other/x', enc('not watched'));
      await s.delete('/w/a');
      await until(() => w1.events.length === 3);
      assert.deepEqual(w1.events.map(e => e.type), ['put', 'put', 'delete']);
      assert.equal(w1.events[0]!.prevKv, undefined);
      assert.equal(dec(w1.events[1]!.prevKv!.value), '1');
      assert.equal(dec(w1.events[2]!.prevKv!.value), '2');
      const revs = w1.events.map(e => e.kv.modRevision);
      assert.deepEqual([...revs].sort((x, y) => x - y), revs);
      const w2 = collect(s, '/w/', b.modRevision);
      await until(() => w2.events.length === 1);
      assert.equal(w2.events[0]!.type, 'delete');
      w1.cancel(); w2.cancel();
      await s.close();
    });

    test('many watchers see every event of a write storm exactly once, in order', async () => {
      const s = await open();
      const start = await s.currentRevision();
      const watchers = Array.from({ length: 20 }, () => collect(s, '/storm/', start));
      await Promise.all(Array.from({ length: 200 }, (_, i) => s.create(`/storm/${i}`, enc(String(i)))));
      await until(() => watchers.every(w => w.events.length === 200));
      const expected = watchers[0]!.events.map(e => e.kv.modRevision);
      assert.deepEqual([...expected].sort((x, y) => x - y), expected);
      for (const w of watchers) assert.deepEqual(w.events.map(e => e.kv.modRevision), expected);
      for (const w of watchers) w.cancel();
      await s.close();
    });

    test('compaction: live keys stay readable, old revisions and watches answer compacted', async () => {
      const s = await open();
      const a = await s.create('/k/a', enc('1'));
      const a2 = await s.update('/k/a', enc('2'), a.modRevision);
      await s.create('/k/b', enc('b'));
      await s.delete('/k/b');
      const at = await s.currentRevision();
      await s.update('/k/a', enc('3'), a2.modRevision);
      await s.compact(at);
      assert.equal(await s.compactedRevision(), at);
      assert.equal(dec((await s.get('/k/a', { revision: at })).kv!.value), '2');
      assert.equal(dec((await s.get('/k/a')).kv!.value), '3');
      assert.deepEqual((await s.range('/k/', prefixEnd('/k/'), { revision: at })).kvs.map(kv => kv.key), ['/k/a']);
      await assert.rejects(s.get('/k/a', { revision: a.modRevision }), (e: unknown) => code(e) === 'compacted');
      const w = collect(s, '/k/', a.modRevision);
      await until(() => w.error !== undefined);
      assert.equal(code(w.error), 'compacted');
      await s.close();
    });
  });
}
