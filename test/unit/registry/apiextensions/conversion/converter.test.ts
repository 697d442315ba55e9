import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../src/api/object.ts';
import { crdConverter, CustomResourceConversions } from '../../../../../src/registry/apiextensions/conversion/converter.ts';
import { valuesInVersion } from '../../../../../src/registry/apiextensions/conversion/stored-values.ts';
import type { Crd } from '../../../../../src/registry/apiextensions/crd-types.ts';
import type { KeyValue } from '../../../../../src/storage/interface.ts';

const schema = (props: Record<string, unknown>) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } });

function crd(conversion: Crd['spec']['conversion'], extra: Partial<Crd['spec']> = {}): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.com', uid: 'crd-uid', generation: 1 },
    spec: {
      group: 'example.com', scope: 'Cluster', names: { plural: 'things', kind: 'Thing' }, conversion,
      versions: [
        { name: 'v1', served: true, storage: false, schema: schema({ a: { type: 'string' }, both: { type: 'string' } }) },
        { name: 'v2', served: true, storage: true, schema: schema({ b: { type: 'string' }, both: { type: 'string' } }) },
      ],
      ...extra,
    },
  } as Crd;
}

const thing = (apiVersion: string, spec: Record<string, unknown>, name = 't'): KubeObject => ({ apiVersion, kind: 'Thing', metadata: { name, uid: `u-${name}` }, spec });
const noWebhook = () => async () => { throw new Error('no webhook expected'); };

test('None rewrites apiVersion only, and the target version\'s schema prunes what it does not know', async () => {
  const conv = crdConverter(crd({ strategy: 'None' }), noWebhook);
  const [out] = await conv.convert([thing('example.com/v1', { a: 'x', both: 'y' })], 'example.com/v2');
  assert.deepEqual(out, thing('example.com/v2', { both: 'y' }));
  const same = thing('example.com/v2', { b: 'kept' });
  assert.equal((await conv.convert([same], 'example.com/v2'))[0], same, 'already there: untouched');
  assert.equal(conv.converts('example.com/v1', 'example.com/v2'), true, 'the schemas differ');
  const oneSchema = crd({ strategy: 'None' });
  oneSchema.spec.versions[0]!.schema = oneSchema.spec.versions[1]!.schema;
  assert.equal(crdConverter(oneSchema, noWebhook).converts('example.com/v1', 'example.com/v2'), false, 'only apiVersion would change');
  assert.equal(crdConverter(oneSchema, noWebhook).converts('example.com/v0', 'example.com/v2'), true, 'an unknown version is refused by convert');
  // preserveUnknownFields keeps everything
  const keep = crdConverter(crd({ strategy: 'None' }, { preserveUnknownFields: true }), noWebhook);
  assert.deepEqual((await keep.convert([thing('example.com/v1', { a: 'x' })], 'example.com/v2'))[0]!.spec, { a: 'x' });
});

test('versions outside spec.versions are refused both ways, as a 500 without a reason', async () => {
  const conv = crdConverter(crd({ strategy: 'None' }), noWebhook);
  await assert.rejects(conv.convert([thing('example.com/v1', {})], 'example.com/v3'), (e: any) => e.status.code === 500 && e.status.reason === undefined && e.message === 'request to convert CR to an invalid group/version: example.com/v3');
  await assert.rejects(conv.convert([thing('example.com/v0', {})], 'example.com/v2'), { message: 'request to convert CR from an invalid group/version: example.com/v0' });
  await assert.rejects(conv.convert([thing('example.com/v1', {}), thing('example.com/v0', {})], 'example.com/v2', true), { message: 'request to convert CR list failed, list index 1 has invalid group/version: example.com/v0' });
});

test('Webhook calls the configured client config, and its answer is pruned too', async () => {
  const seen: unknown[] = [];
  const conv = crdConverter(crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://hook/convert' } } }), cfg => async review => {
    seen.push(cfg);
    const req = (review as any).request;
    return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: req.uid, result: { status: 'Success' }, convertedObjects: req.objects.map((o: any) => ({ ...o, apiVersion: req.desiredAPIVersion, spec: { b: o.spec.a, extra: 1 } })) } };
  }, () => 'fixed-uid');
  const [out] = await conv.convert([thing('example.com/v1', { a: 'x' })], 'example.com/v2');
  assert.deepEqual(out, thing('example.com/v2', { b: 'x' }));
  assert.deepEqual(seen, [{ url: 'https://hook/convert' }]);
});

test('the table keeps a CRD\'s converter while its generation stays, and finds it by resource', () => {
  const table = new CustomResourceConversions(noWebhook);
  const c = crd({ strategy: 'None' });
  table.update([c]);
  const info = { custom: { crd: 'things.example.com', terminating: false } } as never;
  const first = table.forResource(info);
  table.update([structuredClone(c)]);
  assert.equal(table.forResource(info), first);
  table.update([{ ...c, metadata: { ...c.metadata, generation: 2 } }]);
  assert.notEqual(table.forResource(info), first);
  assert.equal(table.forResource({} as never), undefined, 'built-in resources have none');
  table.update([{ ...c, spec: { ...c.spec, versions: [c.spec.versions[1]!] } }]);
  assert.equal(table.forResource(info), undefined, 'a single version converts nothing');
  table.update([]);
  assert.equal(table.forResource(info), undefined);
});

const enc = new TextEncoder();
const kv = (obj: KubeObject, rev: number): KeyValue => ({ key: `/registry/things.example.com/${obj.metadata.name}`, value: enc.encode(JSON.stringify(obj)), createRevision: rev, modRevision: rev });

test('stored values: only those in another version are converted, together; watch events share a conversion', async () => {
  const batches: string[][] = [];
  const conv = { converts: (from: string, to: string) => from !== to, async convert(objs: KubeObject[], apiVersion: string) { batches.push(objs.map(o => o.metadata.name!)); return objs.map(o => ({ ...o, apiVersion })); } };
  const kvs = [kv(thing('example.com/v1', {}, 'a'), 2), kv(thing('example.com/v2', {}, 'b'), 3), kv(thing('example.com/v1', {}, 'c'), 4), { key: '/registry/things.example.com/bad', value: enc.encode('{oops'), createRevision: 5, modRevision: 5 }];
  const out = await valuesInVersion(conv, kvs, 'example.com/v2', { list: true });
  assert.deepEqual(batches, [['a', 'c']]);
  assert.equal(out[1], kvs[1]);
  assert.equal(out[3], kvs[3], 'a value that does not parse is left for the decode to report');
  assert.deepEqual([out[0]!.key, out[0]!.modRevision, JSON.parse(new TextDecoder().decode(out[0]!.value)).apiVersion], [kvs[0]!.key, 2, 'example.com/v2']);
  // reads ask again; watch events are converted once for every watcher
  await valuesInVersion(conv, [kvs[0]!], 'example.com/v2');
  await valuesInVersion(conv, [kvs[0]!], 'example.com/v2', { shared: true });
  const again = await valuesInVersion(conv, [kvs[0]!], 'example.com/v2', { shared: true });
  assert.deepEqual(batches, [['a', 'c'], ['a'], ['a']]);
  // what reads do to a stored object (its stored version's defaults) comes before the conversion
  const seen: unknown[] = [];
  const watching = { converts: conv.converts, async convert(objs: KubeObject[], apiVersion: string) { seen.push(...objs.map(o => o.spec)); return objs.map(o => ({ ...o, apiVersion })); } };
  await valuesInVersion(watching, [kvs[0]!], 'example.com/v2', { onRead: o => { (o.spec as Record<string, unknown>).defaulted = true; } });
  assert.deepEqual(seen, [{ defaulted: true }]);
  assert.equal(JSON.parse(new TextDecoder().decode(again[0]!.value)).apiVersion, 'example.com/v2');
});
