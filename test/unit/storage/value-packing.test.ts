// Values the watch cache keeps packed against templates: every byte range of every value comes
// back as written, alike values cost a small share of their size, unlike ones get their own
// templates or stay plain, and a cache really holds its alike values packed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValuePacker } from '../../../src/storage/cacher/value-packer.ts';
import { copyValue, copyValueRange, copyValueSpliced, PackedKeyValue, valueBytes, valueLength } from '../../../src/storage/packed-value.ts';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import { prefixEnd, type KeyValue } from '../../../src/storage/interface.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const kvOf = (value: Uint8Array, rev = 1): KeyValue => ({ key: `/p/k${rev}`, value, createRevision: rev, modRevision: rev });

let seed = 11;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const randomText = (n: number) => Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyzé0123456789"{}:,'[Math.floor(random() * 42)]).join('');

/** a pod-like value: the same shape each time, with a name, a uid and a time of its own */
function podLike(i: number, status = ''): Uint8Array {
  return enc(JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `web-${i}`, namespace: 'default', uid: `${(i * 2654435761) >>> 0}-4bb1-a8ce-${i}`, creationTimestamp: `2026-11-23T10:${String(i % 60).padStart(2, '0')}:00Z`, labels: { app: 'web', tier: 'front' } },
    spec: { containers: [{ name: 'web', image: 'registry.example/web:1.2.3', env: [{ name: 'INDEX', value: String(i) }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' },
    status: status ? { phase: status, conditions: [{ type: 'Ready', status: 'True' }], podIP: `10.0.${i % 250}.${i % 7}` } : { phase: 'Pending' },
  }));
}

/** every byte range of `kv` read through the accessors equals the same range of `want` */
function assertSameBytes(kv: KeyValue, want: Uint8Array): void {
  assert.equal(valueLength(kv), want.length);
  assert.deepEqual(kv.value, want);
  const n = want.length;
  for (let r = 0; r < 40; r++) {
    const from = Math.floor(random() * n);
    const to = from + Math.floor(random() * (n - from + 5));
    assert.deepEqual(valueBytes(kv, from, to), want.subarray(from, to), `bytes [${from}, ${to})`);
    assert.deepEqual(valueBytes(kv, from, to, new Uint8Array(8)), want.subarray(from, to), 'through a scratch buffer, or past one too small');
  }
  const out = new Uint8Array(n + 10).fill(7);
  const from = Math.floor(random() * n);
  assert.equal(copyValue(kv, out, 3, from), n - from);
  assert.deepEqual(out.subarray(3, 3 + n - from), want.subarray(from));
  assert.deepEqual([out[2], out[3 + n - from]], [7, 7], 'nothing written outside the range');
  const to = from + Math.floor(random() * (n - from));
  const ranged = new Uint8Array(n + 10).fill(7);
  copyValueRange(kv, ranged, 5, from, to);
  assert.deepEqual(ranged.subarray(5, 5 + to - from), want.subarray(from, to));
  assert.deepEqual([ranged[4], ranged[5 + to - from]], [7, 7], 'a range: nothing written outside it');
  // written with a gap before one byte (a list leaves room for the resourceVersion there),
  // copied from the template itself or from a copy of it in the same buffer (after the answer)
  for (let r = 0; r < 20; r++) {
    const start = Math.floor(random() * n);
    const split = start + Math.floor(random() * (n - start + 1));
    const gap = Math.floor(random() * 30);
    const template = kv instanceof PackedKeyValue ? kv.template : new Uint8Array();
    const spliced = new Uint8Array(n + 40 + template.length).fill(7);
    const tplAt = r % 2 && kv instanceof PackedKeyValue ? n + 40 : -1;
    if (tplAt >= 0) spliced.set(template, tplAt);
    assert.equal(copyValueSpliced(kv, spliced, 2, start, split, gap, tplAt), n - start + gap);
    assert.deepEqual(spliced.subarray(2, 2 + split - start), want.subarray(start, split), `before ${split}`);
    assert.deepEqual(spliced.subarray(2 + split - start + gap, 2 + n - start + gap), want.subarray(split), `from ${split}`);
    assert.deepEqual([spliced[1], spliced[2 + n - start + gap]], [7, 7], 'spliced: nothing written outside it');
    if (tplAt >= 0) assert.deepEqual(spliced.subarray(tplAt), template, 'the copy of the template left as it was');
  }
}

test('packed values give back every byte range as written: substitutions, insertions, deletions, non-ASCII', () => {
  const packer = new ValuePacker();
  const base = randomText(3000);
  const variants = [
    base,
    base.slice(0, 100) + 'XYZ' + base.slice(103),
    base.slice(0, 500) + randomText(40) + base.slice(500),
    base.slice(0, 1000) + base.slice(1100),
    'prefix' + base,
    base + 'suffix',
    base.slice(7, 2900),
    base.slice(0, 1500) + 'ü€😀' + base.slice(1500, 2990),
    // many same-length substitutions: more literals in one stretch of template than are held back at once
    [...base].map((ch, i) => (i % 23 === 0 ? (ch === 'q' ? 'r' : 'q') : ch)).join(''),
  ];
  for (const [i, text] of variants.entries()) {
    const want = enc(text);
    const kv = packer.pack(kvOf(want, i + 1));
    assert.ok(kv instanceof PackedKeyValue, `variant ${i} packed`);
    assert.deepEqual([kv.key, kv.createRevision, kv.modRevision], [`/p/k${i + 1}`, i + 1, i + 1]);
    assertSameBytes(kv, want);
  }
});

test('alike values cost a small share of their bytes, against one template', () => {
  const packer = new ValuePacker();
  const packed = Array.from({ length: 200 }, (_, i) => packer.pack(kvOf(podLike(i), i + 1)) as PackedKeyValue);
  const bytes = packed.reduce((n, kv) => n + kv.size, 0);
  const delta = packed.reduce((n, kv) => n + kv.delta.length, 0);
  assert.ok(delta < bytes * 0.1, `deltas ${delta} B for ${bytes} B of values`);
  assert.equal(new Set(packed.map(kv => kv.template)).size, 1);
  packed.forEach((kv, i) => assertSameBytes(kv, podLike(i)));
});

test('values of a new shape get their own template, and later ones of that shape pack against it', () => {
  const packer = new ValuePacker();
  const pending = packer.pack(kvOf(podLike(1))) as PackedKeyValue;
  // a status much larger than the allowed share of literals: not described by the first template
  const running = packer.pack(kvOf(podLike(2, 'Running'.repeat(200)))) as PackedKeyValue;
  const running2 = packer.pack(kvOf(podLike(3, 'Running'.repeat(200)))) as PackedKeyValue;
  const pending2 = packer.pack(kvOf(podLike(4))) as PackedKeyValue;
  assert.notEqual(running.template, pending.template);
  assert.equal(running2.template, running.template);
  assert.ok(running2.delta.length < 100 && pending2.delta.length < 100, `${running2.delta.length} ${pending2.delta.length}`);
  assertSameBytes(running2, podLike(3, 'Running'.repeat(200)));
});

test('short, long and empty values stay plain; unlike values mostly stay plain after a streak', () => {
  const packer = new ValuePacker();
  for (const value of [new Uint8Array(), enc('{"short":true}'), enc(randomText(20_000))]) {
    const kv = kvOf(value);
    assert.equal(packer.pack(kv), kv);
  }
  const results = Array.from({ length: 40 }, (_, i) => {
    const kv = kvOf(enc(randomText(1000)), i + 1);
    const out = packer.pack(kv);
    assertSameBytes(out, kv.value);
    return out === kv ? 'plain' : 'template';
  });
  // the first few unlike values become templates, then only now and then one does
  assert.deepEqual(results.slice(0, 4), ['template', 'template', 'template', 'template']);
  assert.ok(results.filter(r => r === 'template').length <= 6, results.join(' '));
  // alike values after the streak: within a few dozen one becomes a template, the rest pack
  const alike = Array.from({ length: 60 }, (_, i) => packer.pack(kvOf(podLike(i), 100 + i)));
  const first = alike.findIndex(kv => kv instanceof PackedKeyValue);
  assert.ok(first >= 0 && first < 32, `first packed: ${first}`);
  assert.ok(alike.slice(first).every(kv => kv instanceof PackedKeyValue));
  alike.forEach((kv, i) => assertSameBytes(kv, podLike(i)));
  assert.equal(packer.pack(alike[59]!), alike[59], 'a packed value is not packed twice');
});

test('the watch cache holds alike values packed, and reads give their bytes back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-packing-'));
  const s = createCacher(await openSqliteStorage({ path: join(dir, 'db.sqlite') }));
  try {
    await s.ready('/registry/pods/');
    for (let i = 0; i < 100; i++) await s.create(`/registry/pods/default/web-${i}`, podLike(i));
    const { kvs } = await s.range('/registry/pods/', prefixEnd('/registry/pods/'));
    assert.equal(kvs.length, 100);
    assert.ok(kvs.every(kv => kv instanceof PackedKeyValue), 'held packed');
    const byName = new Map(kvs.map(kv => [kv.key, kv]));
    for (let i = 0; i < 100; i++) assert.deepEqual(byName.get(`/registry/pods/default/web-${i}`)!.value, podLike(i));
  } finally {
    await s.close();
    await rm(dir, { recursive: true, force: true });
  }
});
