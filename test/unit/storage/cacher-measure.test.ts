// Measurements of the watch cache (not a correctness test): list latency against SQLite,
// memory per object, and fan-out delivery latency. Run with ORCH_MEASURE=1; numbers are printed.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { prefixEnd, type Storage } from '../../../src/storage/interface.ts';
import { enc, openInner, removeTemp } from './support/cacher-helpers.ts';

after(removeTemp);
const skip = process.env.ORCH_MEASURE ? false : 'measurement only: set ORCH_MEASURE=1 to run';
if (skip) console.log(`# cacher-measure: ${skip}`);

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const pct = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

function objectJson(ns: string, name: string): Uint8Array {
  return enc(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, uid: `0000-${name}`, labels: { app: 'bench' } }, data: { key: 'value' } }));
}

async function fill(s: Storage, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, n - i) }, (_, j) => s.create(`${prefix}ns${(i + j) % 10}/cm${i + j}`, objectJson(`ns${(i + j) % 10}`, `cm${i + j}`))));
  }
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<{ median: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)]!, min: times[0]! };
}

test('list of 10k objects: cache vs SQLite', { skip }, async () => {
  const inner = await openInner();
  const P = '/registry/configmaps/';
  await fill(inner, P, 10_000);
  const cache = createCacher(inner);
  await cache.ready(P);
  const fromInner = await timeIt(15, () => inner.range(P, prefixEnd(P)));
  const fromCache = await timeIt(15, () => cache.range(P, prefixEnd(P)));
  // updates after the load, so a read 100 revisions back is rebuilt from held events
  for (let i = 0; i < 200; i += 20) {
    await Promise.all(Array.from({ length: 20 }, async (_, j) => {
      const key = `${P}ns${(i + j) % 10}/cm${i + j}`;
      const { kv } = await inner.get(key);
      await inner.update(key, objectJson('x', 'updated'), kv!.modRevision);
    }));
  }
  const rev = (await inner.currentRevision()) - 100;
  const innerPast = await timeIt(5, () => inner.range(P, prefixEnd(P), { revision: rev }));
  const cachePast = await timeIt(5, () => cache.range(P, prefixEnd(P), { revision: rev }));
  assert.equal(cache.stats().fallbackReads, 0, 'the past read was a snapshot');
  const innerPage = await timeIt(50, () => inner.range(`${P}ns3/`, prefixEnd(`${P}ns3/`), { limit: 500 }));
  const cachePage = await timeIt(50, () => cache.range(`${P}ns3/`, prefixEnd(`${P}ns3/`), { limit: 500 }));
  console.log(`# list 10k newest: sqlite median ${fromInner.median.toFixed(2)} ms, cache median ${fromCache.median.toFixed(2)} ms`);
  console.log(`# list 10k at revision-100: sqlite median ${innerPast.median.toFixed(2)} ms, cache (snapshot) median ${cachePast.median.toFixed(2)} ms`);
  console.log(`# namespace page of 500: sqlite median ${innerPage.median.toFixed(3)} ms, cache median ${cachePage.median.toFixed(3)} ms`);
  assert.equal((await cache.range(P, prefixEnd(P))).count, 10_000);
  await cache.close();
});

test('memory held by the cache per 10k and 100k objects', { skip }, async () => {
  for (const n of [10_000, 100_000]) {
    const inner = await openInner();
    const P = '/registry/configmaps/';
    await fill(inner, P, n);
    gc(); gc();
    const before = process.memoryUsage();
    const cache = createCacher(inner);
    await cache.ready(P);
    gc(); gc();
    const afterLoad = process.memoryUsage();
    console.log(`# ${n} objects (~${objectJson('ns0', 'cm0').length} B each): rss +${mb(afterLoad.rss - before.rss)} MB, heap +${mb(afterLoad.heapUsed - before.heapUsed)} MB, arrayBuffers +${mb(afterLoad.arrayBuffers - before.arrayBuffers)} MB`);
    await cache.close();
    gc();
  }
});

test('fan-out latency: 1,000 watchers x 100 writes/s', { skip }, async () => {
  const inner = await openInner();
  const P = '/registry/pods/';
  const cache = createCacher(inner);
  await cache.ready(P);
  const start = await inner.currentRevision();
  const writes = 500;
  const watchers = 1000;
  const samples = new Float64Array(writes * watchers);
  const afterCommit = new Float64Array(writes * watchers);
  const committedAt = new Map<number, number>();
  let got = 0;
  let closing = false;
  for (let i = 0; i < watchers; i++) {
    cache.watch(P, {
      afterRevision: start,
      onEvents: evs => {
        const now = performance.now();
        for (const ev of evs) {
          afterCommit[got] = now - committedAt.get(ev.kv.modRevision)!;
          samples[got++] = now - Number(new TextDecoder().decode(ev.kv.value));
        }
      },
      onError: e => { if (!closing) throw e; },
    });
  }
  const t0 = performance.now();
  for (let i = 0; i < writes; i++) {
    const due = t0 + i * 10;
    const wait = due - performance.now();
    if (wait > 0) await new Promise(r => setTimeout(r, wait));
    void cache.create(`${P}ns/p${i}`, enc(String(performance.now()))).then(kv => { committedAt.set(kv.modRevision, performance.now()); });
  }
  const deadline = Date.now() + 10_000;
  while (got < samples.length && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
  const elapsed = (performance.now() - t0) / 1000;
  const sorted = samples.slice(0, got).sort();
  const sortedCommit = afterCommit.slice(0, got).sort();
  console.log(`# fan-out: ${watchers} watchers, ${writes} writes in ${elapsed.toFixed(1)} s (${(writes / elapsed).toFixed(0)}/s), ${got} deliveries: p50 ${pct(sorted, 0.5).toFixed(2)} ms, p99 ${pct(sorted, 0.99).toFixed(2)} ms, max ${sorted[sorted.length - 1]!.toFixed(2)} ms (write call to watcher callback, including the SQLite commit)`);
  console.log(`# fan-out after commit (write promise settled to watcher callback): p50 ${pct(sortedCommit, 0.5).toFixed(2)} ms, p99 ${pct(sortedCommit, 0.99).toFixed(2)} ms`);
  assert.equal(got, samples.length);
  assert.equal(cache.stats().slowWatchersEnded, 0);
  closing = true;
  await cache.close();
});
