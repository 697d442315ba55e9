// Lists through a label selector judge objects by the labels in their stored bytes: the answer
// is the same as decoding every object and filtering (bytes included, pages and continue tokens
// included), and an object the labels rule out is never decoded.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { goJsonBody } from '../../../src/codec/go-json.ts';
import { StatusError } from '../../../src/api/status.ts';
import type { KubeList, KubeObject } from '../../../src/api/object.ts';
import { matchesLabels, parseLabelSelector } from '../../../src/api/selectors/label.ts';
import { testRegistry, type TestRegistry } from '../support/registry.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

const cm = () => reg.info('', 'configmaps');
const deployments = () => reg.info('apps', 'deployments');

/** ConfigMaps of every label shape: none, empty, one, several, prefixed keys, with annotations, being deleted */
async function fill(ns: string): Promise<void> {
  const shapes: Array<Partial<KubeObject['metadata']>> = [
    {},
    { labels: {} },
    { labels: { app: 'web' } },
    { labels: { app: 'web', tier: 'front', 'example.com/role': 'cache' } },
    { labels: { app: 'db', tier: 'back' }, annotations: { note: 'app=web' } },
    { annotations: { app: 'web' } },
    { labels: { app: 'web', canary: '' }, finalizers: ['example.com/hold'] },
    { labels: { 'app.kubernetes.io/name': 'web', version: '10' } },
  ];
  for (let i = 0; i < 30; i++) {
    await reg.store.create(cm(), ns, { metadata: { name: `cm-${String(i).padStart(2, '0')}`, ...shapes[i % shapes.length] }, data: { i: String(i) } } as KubeObject);
  }
  // one being deleted: a deletionTimestamp and a grace period stand before its labels
  await reg.store.delete(cm(), ns, 'cm-06');
}

const selectors = ['app=web', 'app!=web', 'app in (web,db)', 'app notin (web)', 'tier', '!tier', 'app=web,tier=front', 'canary', 'example.com/role=cache', 'app.kubernetes.io/name', 'version>5', 'app=none'];

test('a JSON list through a label selector is the bytes of decoding every object and filtering', async () => {
  await fill('shapes');
  const all = await reg.store.list(cm(), 'shapes');
  assert.ok(all.items.some(o => o.metadata.deletionTimestamp), 'one object is being deleted');
  for (const text of selectors) {
    const labels = parseLabelSelector(text);
    const decoded = await reg.store.list(cm(), 'shapes', { filter: o => matchesLabels(labels, o.metadata.labels) });
    const spliced = await reg.store.listJson(cm(), 'shapes', { labels });
    assert.equal(spliced.toString(), goJsonBody(decoded), text);
    // the decoding path given the labels as well answers the same
    assert.deepEqual(await reg.store.list(cm(), 'shapes', { filter: o => matchesLabels(labels, o.metadata.labels), labels }), decoded, text);
    assert.deepEqual(decoded.items.map(o => o.metadata.name), all.items.filter(o => matchesLabels(labels, o.metadata.labels)).map(o => o.metadata.name), text);
  }
});

test('pages of a label-selected list: the same items, continue tokens and no remainingItemCount', async () => {
  await fill('paged');
  const labels = parseLabelSelector('app=web');
  const filter = (o: KubeObject) => matchesLabels(labels, o.metadata.labels);
  let continueToken: string | undefined;
  const names: string[] = [];
  do {
    const page = JSON.parse((await reg.store.listJson(cm(), 'paged', { labels, limit: 3, continueToken })).toString()) as KubeList;
    const decoded = await reg.store.list(cm(), 'paged', { filter, limit: 3, continueToken });
    assert.deepEqual(page, JSON.parse(goJsonBody(decoded)));
    assert.equal(page.metadata.remainingItemCount, undefined);
    names.push(...page.items.map(o => o.metadata.name!));
    continueToken = page.metadata.continue;
  } while (continueToken);
  assert.deepEqual(names, (await reg.store.list(cm(), 'paged', { filter })).items.map(o => o.metadata.name));
});

test('an object its stored labels rule out is not decoded: corrupt bytes past its labels go unread', async () => {
  await reg.store.create(cm(), 'corrupt', { metadata: { name: 'fine', labels: { app: 'web' } }, data: {} } as KubeObject);
  // the head and labels as the store writes them, then bytes no JSON parser takes
  const broken = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"broken","namespace":"corrupt","uid":"u-1","creationTimestamp":"2026-01-02T03:04:05Z","labels":{"app":"db"}},"data":{"k":';
  await reg.storage.create('/registry/configmaps/corrupt/broken', new TextEncoder().encode(broken));
  const web = parseLabelSelector('app=web');
  const json = JSON.parse((await reg.store.listJson(cm(), 'corrupt', { labels: web })).toString()) as KubeList;
  assert.deepEqual(json.items.map(o => o.metadata.name), ['fine']);
  const decoded = await reg.store.list(cm(), 'corrupt', { labels: web, filter: o => matchesLabels(web, o.metadata.labels) });
  assert.deepEqual(decoded.items.map(o => o.metadata.name), ['fine']);
  // decoded, it fails the list as any corrupt object does: judged by a filter alone, or selected
  const isCorrupt = (err: unknown) => err instanceof StatusError && err.code === 500 && err.reason === 'StoreReadError';
  await assert.rejects(reg.store.list(cm(), 'corrupt', { filter: o => matchesLabels(web, o.metadata.labels) }), isCorrupt);
  const db = parseLabelSelector('app=db');
  await assert.rejects(reg.store.list(cm(), 'corrupt', { labels: db, filter: o => matchesLabels(db, o.metadata.labels) }), isCorrupt);
});

test('objects with a generation (Deployments) are judged by their labels too', async () => {
  for (const [name, app] of [['a', 'web'], ['b', 'db'], ['c', 'web']]) {
    await reg.store.create(deployments(), 'gen', {
      metadata: { name, labels: { app: app! } },
      spec: { replicas: 1, selector: { matchLabels: { app: app! } }, template: { metadata: { labels: { app: app! } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    } as KubeObject);
  }
  const labels = parseLabelSelector('app=web');
  const decoded = await reg.store.list(deployments(), 'gen', { filter: o => matchesLabels(labels, o.metadata.labels) });
  assert.ok(decoded.items.every(o => o.metadata.generation === 1));
  assert.equal((await reg.store.listJson(deployments(), 'gen', { labels })).toString(), goJsonBody(decoded));
  assert.deepEqual(decoded.items.map(o => o.metadata.name), ['a', 'c']);
});
