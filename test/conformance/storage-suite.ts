// The storage contract as one suite that every backend (and the watch cache) must pass:
// `storageConformance(name, open)` with a factory that gives a fresh, empty store per test.
// It lives apart from the *.test.ts runners so that importing it runs nothing by itself.
// Assertions use only revisions the store returned, never assumed numbers, so that a shared
// etcd can run it too.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prefixEnd, StorageError, type KeyValue, type Storage, type WatchEvent } from '../../src/storage/interface.ts';
import { maxValueBytes } from '../../src/storage/value-limit.ts';

export const enc = (s: string) => new TextEncoder().encode(s);
export const dec = (b: Uint8Array) => new TextDecoder().decode(b);

export function code(err: unknown): string | undefined {
  return err instanceof StorageError ? err.code : undefined;
}

export function collect(s: Storage, prefix: string, afterRevision: number) {
  const events: WatchEvent[] = [];
  let error: Error | undefined;
  let progress: number | undefined;
  const w = s.watch(prefix, { afterRevision, onEvents: e => { events.push(...e); }, onError: e => { error = e; }, onProgress: r => { progress = r; } });
  return { events, watcher: w, get error() { return error; }, get progress() { return progress; }, cancel: () => w.cancel() };
}

export async function until(pred: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise(r => setTimeout(r, 5));
  }
}

const values = (kvs: KeyValue[]) => kvs.map(kv => dec(kv.value));

export interface ConformanceOptions {
  /** closes `s` and opens the same store again; without it the reopen test is skipped */
  reopen?: (s: Storage) => Promise<Storage>;
  /** requests in flight together may commit in any order (a networked backend) */
  unordered?: boolean;
  /** compaction writes a record of itself, which takes a revision */
  compactionIsAWrite?: boolean;
  /** why progress on request cannot be checked for this store, if it cannot */
  noProgressRequests?: string;
}

export function storageConformance(name: string, open: () => Promise<Storage>, opts: ConformanceOptions = {}): void {
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
      await assert.rejects(s.delete('/t/a', a.modRevision), (e: unknown) => code(e) === 'conflict' && (e as StorageError).current?.modRevision === u.modRevision);
      const d = await s.delete('/t/a', u.modRevision);
      assert.equal(dec(d.prevKv.value), '2');
      assert.equal(d.prevKv.modRevision, u.modRevision);
      assert.ok(d.revision > u.modRevision);
      assert.equal((await s.get('/t/a')).kv, undefined);
      assert.equal(await s.currentRevision(), d.revision);
      await assert.rejects(s.delete('/t/a'), (e: unknown) => code(e) === 'not-found');
      const b = await s.create('/t/b', enc('b'));
      const db = await s.delete('/t/b');
      assert.equal(db.prevKv.modRevision, b.modRevision, 'delete without a precondition');
      await s.close();
    });

    test('a value over etcd\'s 1.5 MiB request limit is refused on create and update; nothing is written', async () => {
      const s = await open();
      const big = new Uint8Array(maxValueBytes + 1).fill(120);
      const before = await s.currentRevision();
      await assert.rejects(s.create('/t/big', big), (e: unknown) => code(e) === 'too-large' && (e as Error).message === 'etcdserver: request is too large');
      assert.equal((await s.get('/t/big')).kv, undefined);
      const a = await s.create('/t/grows', enc('small'));
      await assert.rejects(s.update('/t/grows', big, a.modRevision), (e: unknown) => code(e) === 'too-large');
      const now = await s.get('/t/grows');
      assert.deepEqual([dec(now.kv!.value), now.kv!.modRevision], ['small', a.modRevision]);
      assert.equal(await s.currentRevision(), a.modRevision, 'no revision was spent on the refused writes');
      assert.ok(a.modRevision > before);
      // well under the limit (1 MiB, the most a ConfigMap's data may hold) is stored
      const mib = await s.update('/t/grows', new Uint8Array(1024 * 1024).fill(121), a.modRevision);
      assert.equal((await s.get('/t/grows')).kv!.value.byteLength, 1024 * 1024);
      assert.ok(mib.modRevision > a.modRevision);
      await s.close();
    });

    test('createRevision survives updates; a re-create after delete starts a new life', async () => {
      const s = await open();
      const a = await s.create('/life/a', enc('1'));
      let cur = a;
      for (let i = 2; i <= 4; i++) cur = await s.update('/life/a', enc(String(i)), cur.modRevision);
      assert.equal(cur.createRevision, a.createRevision);
      assert.equal((await s.get('/life/a')).kv!.createRevision, a.createRevision);
      const d = await s.delete('/life/a', cur.modRevision);
      const again = await s.create('/life/a', enc('new'));
      assert.ok(again.createRevision > d.revision);
      assert.equal(again.createRevision, again.modRevision);
      // the old life is still readable at its revisions
      const old = (await s.get('/life/a', { revision: cur.modRevision })).kv!;
      assert.deepEqual([old.createRevision, old.modRevision, dec(old.value)], [a.createRevision, cur.modRevision, '4']);
      assert.equal((await s.get('/life/a', { revision: d.revision })).kv, undefined, 'absent between delete and re-create');
      await s.close();
    });

    test('ranges: order, limit, more, count, at the present and at past revisions', async () => {
      const s = await open();
      for (const k of ['c', 'a', 'b', 'd']) await s.create(`/r/${k}`, enc(k));
      await s.create('/q/x', enc('other prefix'));
      await s.create('/r0', enc('past the prefix end'));
      const mid = await s.currentRevision();
      await s.delete('/r/b');
      await s.create('/r/e', enc('e'));
      const a = (await s.get('/r/a')).kv!;
      await s.update('/r/a', enc('a2'), a.modRevision);
      const all = await s.range('/r/', prefixEnd('/r/'));
      assert.deepEqual(values(all.kvs), ['a2', 'c', 'd', 'e']);
      assert.deepEqual([all.count, all.more, all.revision], [4, false, await s.currentRevision()]);
      const page = await s.range('/r/', prefixEnd('/r/'), { limit: 2 });
      assert.deepEqual(values(page.kvs), ['a2', 'c']);
      assert.deepEqual([page.count, page.more], [4, true]);
      const next = await s.range('/r/c\0', prefixEnd('/r/'), { limit: 2, revision: page.revision });
      assert.deepEqual(values(next.kvs), ['d', 'e']);
      assert.deepEqual([next.count, next.more], [2, false], 'a full last page');
      const past = await s.range('/r/', prefixEnd('/r/'), { revision: mid });
      assert.deepEqual(values(past.kvs), ['a', 'b', 'c', 'd']);
      assert.deepEqual([past.count, past.more, past.revision], [4, false, mid]);
      const pastPage = await s.range('/r/', prefixEnd('/r/'), { revision: mid, limit: 3 });
      assert.deepEqual(values(pastPage.kvs), ['a', 'b', 'c']);
      assert.deepEqual([pastPage.count, pastPage.more], [4, true]);
      assert.equal((await s.range('/none/', prefixEnd('/none/'))).count, 0);
      const future = (await s.currentRevision()) + 10;
      await assert.rejects(s.range('/r/', prefixEnd('/r/'), { revision: future }), (e: unknown) => code(e) === 'future-revision');
      await assert.rejects(s.get('/r/a', { revision: future }), (e: unknown) => code(e) === 'future-revision');
      await s.close();
    });

    test('concurrent writes: distinct revisions, and one conflict fails alone', async () => {
      const s = await open();
      const base = await s.create('/c/shared', enc('0'));
      const writes = Array.from({ length: 50 }, (_, i) => s.create(`/c/k${i}`, enc(String(i))));
      const first = s.update('/c/shared', enc('1'), base.modRevision);
      const second = s.update('/c/shared', enc('2'), base.modRevision);
      const dup = s.create('/c/k0', enc('again'));
      const results = await Promise.allSettled([...writes, first, second, dup]);
      const ok = results.filter(r => r.status === 'fulfilled').map(r => (r as PromiseFulfilledResult<KeyValue>).value);
      assert.equal(ok.length, 51, 'all creates and exactly one of the two updates');
      assert.equal(new Set(ok.map(kv => kv.modRevision)).size, ok.length);
      const failures = results.filter(r => r.status === 'rejected').map(r => code((r as PromiseRejectedResult).reason));
      for (const kv of ok) assert.equal((await s.get(kv.key)).kv!.modRevision, kv.modRevision, `${kv.key} as acknowledged`);
      if (opts.unordered) {
        // requests in flight together may commit in any order: one of each pair wins
        assert.deepEqual([...failures].sort(), ['conflict', 'key-exists']);
        const winner = [first, second].findIndex((_, i) => results[50 + i]!.status === 'fulfilled');
        assert.equal(dec((await s.get('/c/shared')).kv!.value), String(winner + 1), 'the winning CAS is what is stored');
      } else {
        assert.deepEqual(failures, ['conflict', 'key-exists']);
        assert.equal(dec((await s.get('/c/shared')).kv!.value), '1', 'the first CAS wins');
      }
      await s.close();
    });

    test('watch: history then live, in order, with prevKv, resumable from any revision', async () => {
      const s = await open();
      const start = await s.currentRevision();
      const a = await s.create('/w/a', enc('1'));
      const w1 = collect(s, '/w/', start);
      const b = await s.update('/w/a', enc('2'), a.modRevision);
      await s.create('/other/x', enc('not watched'));
      const d = await s.delete('/w/a');
      await until(() => w1.events.length === 3);
      assert.deepEqual(w1.events.map(e => e.type), ['put', 'put', 'delete']);
      assert.deepEqual(w1.events.map(e => e.kv.modRevision), [a.modRevision, b.modRevision, d.revision]);
      assert.equal(w1.events[0]!.prevKv, undefined);
      assert.equal(dec(w1.events[1]!.prevKv!.value), '1');
      const del = w1.events[2]!;
      assert.deepEqual([dec(del.prevKv!.value), del.prevKv!.modRevision, del.kv.createRevision, del.kv.value.length], ['2', b.modRevision, a.createRevision, 0]);
      const w2 = collect(s, '/w/', b.modRevision);
      await until(() => w2.events.length === 1);
      assert.equal(w2.events[0]!.type, 'delete');
      assert.equal(dec(w2.events[0]!.prevKv!.value), '2', 'prevKv from history too');
      w1.cancel(); w2.cancel();
      await s.close();
    });

    test('values alike and unlike: reads and events give back exactly the bytes written', async () => {
      // the watch cache keeps alike values packed against each other: what comes back must still
      // be each write's own bytes, whatever it was packed against
      const s = await open();
      const start = await s.currentRevision();
      const w = collect(s, '/alike/', start);
      const alike = (i: number, extra = '') => JSON.stringify({ kind: 'Pod', metadata: { name: `p${i}`, uid: `${i * 7919}-uid-${i}` }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1.2.3', args: Array.from({ length: 30 }, (_, k) => `--flag-${k}=value-${k}`) }] }, extra }) + 'ü';
      const unlike = (i: number) => Array.from({ length: 60 }, (_, k) => ((i + 1) * 2654435761 * (k + 1)).toString(36)).join('/');
      const want = new Map<string, { value: string; kv: KeyValue }>();
      const written: Array<{ key: string; value: string; prev?: string }> = [];
      const put = async (key: string, value: string) => {
        const cur = want.get(key);
        const kv = cur ? await s.update(key, enc(value), cur.kv.modRevision) : await s.create(key, enc(value));
        written.push({ key, value, prev: cur?.value });
        want.set(key, { value, kv });
      };
      for (let i = 0; i < 40; i++) await put(`/alike/${String(i).padStart(2, '0')}`, alike(i));
      const afterCreates = await s.currentRevision();
      const thenValues = [...want.keys()].sort().map(k => want.get(k)!.value);
      for (let i = 0; i < 40; i += 2) await put(`/alike/${String(i).padStart(2, '0')}`, alike(i, 'status: '.repeat(40 + i)));
      for (let i = 40; i < 50; i++) await put(`/alike/${i}`, unlike(i));
      for (let i = 1; i < 20; i += 4) {
        const key = `/alike/${String(i).padStart(2, '0')}`;
        const d = await s.delete(key, want.get(key)!.kv.modRevision);
        assert.equal(dec(d.prevKv.value), want.get(key)!.value);
        written.push({ key, value: '', prev: want.get(key)!.value });
        want.delete(key);
      }
      const now = await s.range('/alike/', prefixEnd('/alike/'));
      assert.deepEqual(values(now.kvs), [...want.keys()].sort().map(k => want.get(k)!.value));
      for (const [key, { value }] of want) assert.equal(dec((await s.get(key)).kv!.value), value, key);
      const past = await s.range('/alike/', prefixEnd('/alike/'), { revision: afterCreates });
      assert.deepEqual(values(past.kvs), thenValues, 'the values as they were after the creates');
      await until(() => w.events.length === written.length);
      assert.deepEqual(w.events.map(e => [e.kv.key, dec(e.kv.value), e.prevKv ? dec(e.prevKv.value) : undefined]), written.map(x => [x.key, x.value, x.prev]));
      w.cancel();
      await s.close();
    });

    test('watch resumed from a middle revision while writes go on: no gaps, no duplicates', async () => {
      const s = await open();
      const acked: number[] = [];
      let midRevision = 0;
      let w: ReturnType<typeof collect> | undefined;
      for (let round = 0; round < 30; round++) {
        // writes in flight while the watch switches from history to live
        const batch = Array.from({ length: 10 }, (_, i) => s.create(`/mid/${round}-${i}`, enc('v')));
        if (round === 15) {
          midRevision = acked[69]!;
          w = collect(s, '/mid/', midRevision);
        }
        for (const kv of await Promise.all(batch)) acked.push(kv.modRevision);
      }
      const expected = acked.filter(r => r > midRevision).sort((x, y) => x - y);
      await until(() => w!.events.length >= expected.length);
      await new Promise(r => setTimeout(r, 50));
      assert.deepEqual(w!.events.map(e => e.kv.modRevision), expected);
      w!.cancel();
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

    test('a cancelled watch gets nothing more', async () => {
      const s = await open();
      const w = collect(s, '/cx/', await s.currentRevision());
      await s.create('/cx/1', enc('1'));
      await until(() => w.events.length === 1);
      w.cancel();
      await s.create('/cx/2', enc('2'));
      await new Promise(r => setTimeout(r, 50));
      assert.equal(w.events.length, 1);
      await s.close();
    });

    test('progress on request, when the backend offers it', { skip: opts.noProgressRequests ?? false }, async t => {
      const s = await open();
      const w = collect(s, '/prog/', await s.currentRevision());
      if (!w.watcher.requestProgress) {
        t.skip('this backend has no progress notifications');
      } else {
        await s.create('/elsewhere/1', enc('1'));
        const rev = await s.currentRevision();
        w.watcher.requestProgress();
        await until(() => w.progress !== undefined);
        assert.ok(w.progress! >= rev, `progress ${w.progress} covers ${rev}`);
      }
      w.cancel();
      await s.close();
    });

    test('compaction: live keys stay readable, old revisions and watches answer compacted', async () => {
      const s = await open();
      const keep = await s.create('/k/old', enc('never updated'));
      const a = await s.create('/k/a', enc('1'));
      const a2 = await s.update('/k/a', enc('2'), a.modRevision);
      await s.create('/k/b', enc('b'));
      await s.delete('/k/b');
      const at = await s.currentRevision();
      const a3 = await s.update('/k/a', enc('3'), a2.modRevision);
      await s.compact(at);
      assert.equal(await s.compactedRevision(), at);
      assert.equal(dec((await s.get('/k/a', { revision: at })).kv!.value), '2');
      assert.equal(dec((await s.get('/k/a')).kv!.value), '3');
      assert.equal((await s.get('/k/old')).kv!.modRevision, keep.modRevision);
      assert.deepEqual((await s.range('/k/', prefixEnd('/k/'), { revision: at })).kvs.map(kv => kv.key), ['/k/a', '/k/old']);
      assert.deepEqual((await s.range('/k/', prefixEnd('/k/'))).kvs.map(kv => kv.key), ['/k/a', '/k/old']);
      await assert.rejects(s.get('/k/a', { revision: a.modRevision }), (e: unknown) => code(e) === 'compacted' && (e as StorageError).revision === at);
      await assert.rejects(s.range('/k/', prefixEnd('/k/'), { revision: a.modRevision }), (e: unknown) => code(e) === 'compacted');
      const w = collect(s, '/k/', a.modRevision);
      await until(() => w.error !== undefined);
      assert.equal(code(w.error), 'compacted');
      assert.equal((w.error as StorageError).revision, at);
      // from the compacted revision on, history is whole, prevKv included
      const w2 = collect(s, '/k/', at);
      await until(() => w2.events.length === 1);
      assert.deepEqual([w2.events[0]!.kv.modRevision, dec(w2.events[0]!.prevKv!.value)], [a3.modRevision, '2']);
      w2.cancel();
      await s.close();
    });

    test('reopen after close keeps data, the revision counter and the compacted revision', { skip: opts.reopen ? false : 'the factory cannot reopen a store' }, async () => {
      const s = await open();
      const a = await s.create('/re/a', enc('1'));
      const a2 = await s.update('/re/a', enc('2'), a.modRevision);
      const b = await s.create('/re/b', enc('b'));
      const d = await s.delete('/re/b');
      await s.compact(a2.modRevision);
      const s2 = await opts.reopen!(s);
      // a backend may record its compaction as one more write (etcd keeps it for every server)
      const rev = await s2.currentRevision();
      assert.ok(rev === d.revision || (opts.compactionIsAWrite && rev === d.revision + 1), `revision ${rev} after reopen`);
      assert.equal(await s2.compactedRevision(), a2.modRevision);
      const got = (await s2.get('/re/a')).kv!;
      assert.deepEqual([dec(got.value), got.createRevision, got.modRevision], ['2', a.createRevision, a2.modRevision]);
      assert.equal((await s2.get('/re/b')).kv, undefined);
      assert.equal((await s2.get('/re/b', { revision: b.modRevision })).kv!.modRevision, b.modRevision);
      const c = await s2.create('/re/c', enc('c'));
      assert.ok(c.modRevision > d.revision, 'revisions continue after reopen');
      const w = collect(s2, '/re/', a2.modRevision);
      await until(() => w.events.length === 3);
      assert.deepEqual(w.events.map(e => e.kv.modRevision), [b.modRevision, d.revision, c.modRevision]);
      w.cancel();
      await s2.close();
    });
  });
}
