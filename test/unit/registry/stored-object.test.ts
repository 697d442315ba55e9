// Stored objects written out as JSON without a parse: the served apiVersion and resourceVersion
// spliced into the stored bytes, for plain values and for values the watch cache keeps packed,
// and the slow path for heads a splice cannot handle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFromStorage, encodeForStorage, jsonFromStorage, jsonListFromStorage } from '../../../src/registry/stored-object.ts';
import { goJson, goJsonListItem } from '../../../src/codec/go-json.ts';
import { ValuePacker } from '../../../src/storage/cacher/value-packer.ts';
import { PackedKeyValue } from '../../../src/storage/packed-value.ts';
import type { KeyValue } from '../../../src/storage/interface.ts';
import type { KubeObject } from '../../../src/api/object.ts';

const stored = (obj: KubeObject, rev: number): KeyValue => ({ key: `/registry/things/${rev}`, value: encodeForStorage(obj), createRevision: rev, modRevision: rev });

function thing(i: number, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'example.io/v1beta1', kind: 'Thing', metadata: { name: `thing-${i}`, namespace: 'default', uid: `uid-${i}`, resourceVersion: '999', labels: { app: 'a'.repeat(100) } }, spec: { replicas: i, template: 'x'.repeat(200) }, ...extra } as KubeObject;
}

/** what a client of example.io/v1 must see for `obj` at revision `rev` */
const served = (obj: KubeObject, rev: number) => ({ ...obj, apiVersion: 'example.io/v1', metadata: { ...obj.metadata, resourceVersion: String(rev) } });

test('a list of stored objects: each served with the asked apiVersion and its own resourceVersion', () => {
  const objs = [thing(1), thing(2), thing(3, { status: { phase: 'Ready' } })];
  const kvs = objs.map((o, i) => stored(o, 10 + i));
  const out = jsonListFromStorage('{"kind":"ThingList","items":[', kvs, 'example.io/v1', 'Thing', ']}');
  assert.deepEqual(JSON.parse(out.toString()), { kind: 'ThingList', items: objs.map((o, i) => served(o, 10 + i)) });
  assert.deepEqual(JSON.parse(jsonFromStorage(kvs[2]!, 'example.io/v1', 'Thing').toString()), served(objs[2]!, 12));
  assert.equal(jsonListFromStorage('[', [], 'v1', 'Thing', ']').toString(), '[]');
});

test('packed values are written out byte for byte as their plain originals', () => {
  const packer = new ValuePacker();
  const kvs = Array.from({ length: 50 }, (_, i) => stored(thing(i), 100 + i));
  const packed = kvs.map(kv => packer.pack(kv));
  assert.ok(packed.every(kv => kv instanceof PackedKeyValue));
  const plainOut = jsonListFromStorage('{"items":[', kvs, 'example.io/v1', 'Thing', ']}');
  assert.deepEqual(jsonListFromStorage('{"items":[', packed, 'example.io/v1', 'Thing', ']}'), plainOut);
  assert.deepEqual(JSON.parse(plainOut.toString()).items[7], served(thing(7), 107));
  assert.deepEqual(jsonFromStorage(packed[3]!, 'example.io/v1', 'Thing'), jsonFromStorage(kvs[3]!, 'example.io/v1', 'Thing'));
});

test('resourceVersions of every length, and a plain value\'s head past the probe length, are spliced as the slow way writes them', () => {
  const revs = [1, 9, 10, 99, 100, 123456789, 2 ** 53 - 1];
  const kvs = revs.map(rev => stored(thing(rev), rev));
  const items = JSON.parse(jsonListFromStorage('[', kvs, 'example.io/v1', 'Thing', ']').toString()) as KubeObject[];
  assert.deepEqual(items.map(o => o.metadata.resourceVersion), revs.map(String));
  // a name long enough to put the uid past 640 bytes: spliced in place, the same bytes as decoding would give
  const long = { ...thing(1), metadata: { ...thing(1).metadata, name: 'n'.repeat(700) } } as KubeObject;
  assert.deepEqual(JSON.parse(jsonFromStorage(stored(long, 5), 'example.io/v1', 'Thing').toString()), served(long, 5));
});

test('heads with escapes or non-ASCII text, long or missing heads (the slow way) and empty metadata are written correctly', () => {
  const kinds: KubeObject[] = [
    { apiVersion: 'example.io/v1', kind: 'Th\\"ing', metadata: { name: 'escaped' } } as KubeObject,
    { apiVersion: 'example.io/v1', kind: 'Thüng', metadata: { name: 'non-ascii' } } as KubeObject,
    { apiVersion: 'example.io/v1', kind: 'Thing', metadata: {} } as KubeObject,
    { apiVersion: `example.io/${'v'.repeat(300)}`, kind: 'Thing', metadata: { name: 'long-head' } } as KubeObject,
  ];
  const kvs = kinds.map((o, i) => stored(o, 20 + i));
  kvs.push({ key: '/registry/things/odd', value: new TextEncoder().encode('{"metadata":{"name":"odd"},"kind":"Thing"}'), createRevision: 30, modRevision: 30 });
  const items = JSON.parse(jsonListFromStorage('[', kvs, 'example.io/v1', 'Thing', ']').toString()) as KubeObject[];
  assert.deepEqual(items.map(o => [o.apiVersion, o.metadata.resourceVersion, o.metadata.name]), [
    ['example.io/v1', '20', 'escaped'], ['example.io/v1', '21', 'non-ascii'], ['example.io/v1', '22', undefined],
    ['example.io/v1', '23', 'long-head'], ['example.io/v1', '30', 'odd'],
  ]);
  assert.equal(items[1]!.kind, 'Thüng');
});

test('lists of many kinds of object: the spliced bytes are those of decoding and encoding each, plain and packed, read again from remembered heads', () => {
  const pod = (i: number, phase?: string): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `web-${i}`, generateName: 'web-', namespace: 'default', uid: `0000-${i}`, creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'web', i: String(i) }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true }] },
    spec: { containers: [{ name: 'c', image: 'busybox', env: [{ name: 'I', value: String(i) }] }], nodeName: i % 2 ? 'node-1' : '' },
    status: phase ? { phase, podIP: `10.0.0.${i}`, conditions: [{ type: 'Ready', status: 'True' }] } : {},
  } as KubeObject);
  const objs: KubeObject[] = [
    ...Array.from({ length: 40 }, (_, i) => pod(i, i % 3 ? 'Running' : undefined)),
    ...Array.from({ length: 10 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${'x'.repeat(i * 30)}`, namespace: 'ns', uid: `u-${i}`, deletionTimestamp: i % 2 ? '2026-01-02T03:04:05Z' : undefined, finalizers: i % 2 ? ['a/b'] : undefined }, data: { text: 'é€😀 "quoted" \\ back <tag> &', n: String(i) } } as KubeObject)),
    ...Array.from({ length: 5 }, (_, i) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `d-${i}`, namespace: 'ns', uid: `d-${i}`, generation: i + 1 }, spec: { replicas: i, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } as KubeObject)),
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns', uid: 's' }, type: 'Opaque', data: { k: 'dmFsdWU=' } } as KubeObject,
  ];
  const revs = objs.map((_, i) => [1, 9, 10, 99, 100, 1000, 123456789][i % 7]! + i);
  const kvs = objs.map((o, i) => stored(o, revs[i]!));
  const packer = new ValuePacker();
  const packed = kvs.map(kv => packer.pack(kv));
  assert.ok(packed.filter(kv => kv instanceof PackedKeyValue).length > 40, 'most held packed');
  for (const [apiVersion, kind, from, to] of [['v1', 'Pod', 0, 40], ['v1', 'ConfigMap', 40, 50], ['apps/v1', 'Deployment', 50, 55], ['v1', 'Secret', 55, 56]] as const) {
    const want = `{"items":[${kvs.slice(from, to).map(kv => goJsonListItem(decodeFromStorage(kv, apiVersion))).join(',')}]}`;
    for (const list of [kvs, packed, packed]) {
      assert.equal(jsonListFromStorage('{"items":[', list.slice(from, to), apiVersion, kind, ']}').toString(), want, kind);
      list.slice(from, to).forEach(kv => assert.equal(jsonFromStorage(kv, apiVersion, kind).toString(), goJson(decodeFromStorage(kv, apiVersion)) + '\n', kv.key));
    }
  }
  assert.ok(packed.every(kv => !(kv instanceof PackedKeyValue) || kv.note > 0), 'every packed head remembered');
});

test('a kind whose versions differ is spliced only in the version it is stored in, and converted in the others', () => {
  const hpa = (i: number): KubeObject => ({
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: `h-${i}`, namespace: 'ns', uid: `h-${i}` },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 + i } } }] },
  } as KubeObject);
  const packer = new ValuePacker();
  const kvs = Array.from({ length: 6 }, (_, i) => packer.pack(stored(hpa(i), 40 + i)));
  for (const apiVersion of ['autoscaling/v2', 'autoscaling/v1', 'autoscaling/v2']) {
    const want = `[${kvs.map(kv => goJsonListItem(decodeFromStorage(kv, apiVersion))).join(',')}]`;
    assert.equal(jsonListFromStorage('[', kvs, apiVersion, 'HorizontalPodAutoscaler', ']').toString(), want, apiVersion);
  }
  const v1 = JSON.parse(jsonListFromStorage('[', kvs, 'autoscaling/v1', 'HorizontalPodAutoscaler', ']').toString()) as Array<{ spec: { targetCPUUtilizationPercentage?: number } }>;
  assert.deepEqual(v1.map(o => o.spec.targetCPUUtilizationPercentage), [50, 51, 52, 53, 54, 55]);
});
