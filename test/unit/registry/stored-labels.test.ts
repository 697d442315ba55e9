// Labels read from stored bytes: what a decode would find, for plain values and values the watch
// cache keeps packed, and "unknown" (undefined) wherever the bytes are not in the shape relied on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storedLabels } from '../../../src/registry/stored-labels.ts';
import { encodeForStorage } from '../../../src/registry/stored-object.ts';
import { ValuePacker } from '../../../src/storage/cacher/value-packer.ts';
import { PackedKeyValue } from '../../../src/storage/packed-value.ts';
import type { KeyValue } from '../../../src/storage/interface.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const enc = new TextEncoder();
const kvOf = (value: Uint8Array, rev = 1): KeyValue => ({ key: `/registry/things/k${rev}`, value, createRevision: rev, modRevision: rev });

function thing(i: number, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `thing-${i}`, namespace: 'default', uid: `uid-${i}`, creationTimestamp: '2026-01-02T03:04:05Z', ...meta }, data: { template: 'x'.repeat(300), i: String(i) } } as KubeObject;
}

const metas: Array<Partial<KubeObject['metadata']>> = [
  {},
  { labels: {} },
  { labels: { app: 'web' } },
  { labels: { app: 'web', 'example.com/tier': 'front', empty: '' } },
  { generation: 12, labels: { app: 'gen' } },
  { deletionTimestamp: '2026-01-02T03:05:05Z', deletionGracePeriodSeconds: 30, labels: { app: 'going' }, finalizers: ['x/y'] },
  { annotations: { app: 'not-a-label' } },
  { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' }] },
  { labels: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`example.com/key-${i}`, `value-${i}`])) },
  { labels: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`key-${i}.example.com/name-${i}`, `value-${i}-${'v'.repeat(20)}`])) },
];

test('labels read from stored bytes are those a decode finds, plain and packed', () => {
  const packer = new ValuePacker();
  for (let i = 0; i < metas.length * 3; i++) {
    const obj = thing(i, metas[i % metas.length]);
    const plain = kvOf(encodeForStorage(obj), i + 1);
    const want = obj.metadata.labels ?? {};
    assert.deepEqual(storedLabels(plain), want, `plain ${i}`);
    const packed = packer.pack(plain);
    assert.deepEqual(storedLabels(packed), want, `packed ${i}`);
    // read twice: the remembered head gives the same answer
    assert.deepEqual(storedLabels(packed), want, `packed again ${i}`);
  }
  // the many labels past the first kilobyte of a packed value's metadata
  const big = packer.pack(kvOf(encodeForStorage(thing(99, metas.at(-1))), 99));
  assert.ok(big instanceof PackedKeyValue || big.value.length > 1024);
  assert.equal(Object.keys(storedLabels(big)!).length, 60);
});

test('bytes not in the shape relied on are "unknown", never a wrong answer', () => {
  const unknown = [
    // labels out of Go's order (after annotations) could be missed: unknown, not "none"
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","zzz":"1","labels":{"app":"x"}}}',
    // escapes and non-ASCII text in the labels
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"app":"x\\u0041"}}}',
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"app":"é"}}}',
    // a value that is not a string, a field with an object where a time was expected
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"app":1}}}',
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","creationTimestamp":{"x":1},"labels":{"app":"x"}}}',
    // no head to start from (an older stored form) and cut-off bytes
    '{"apiVersion":"v1","kind":"Thing","metadata":{"name":"a","uid":"u","labels":{"app":"x"}}}',
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"app":"x"',
    '{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"__proto__":"x"}}}',
  ];
  for (const text of unknown) assert.equal(storedLabels(kvOf(enc.encode(text))), undefined, text);
  // what is known: no labels before the metadata ends or a later field begins
  assert.deepEqual(storedLabels(kvOf(enc.encode('{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","generation":3},"x":{"labels":{"a":"b"}}}'))), {});
  assert.deepEqual(storedLabels(kvOf(enc.encode('{"kind":"Thing","apiVersion":"v1","metadata":{"name":"a","uid":"u","managedFields":[]}}'))), {});
});
