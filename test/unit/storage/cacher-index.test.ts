// The watch cache's secondary index (pods by spec.nodeName): reads that pin the value see only
// those keys; watchers that pin it get exactly the events of keys that had or have it.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { prefixEnd, type WatchEvent } from '../../../src/storage/interface.ts';
import { storageIndexers, indexHintFor } from '../../../src/registry/indexes.ts';
import { parseFieldSelector } from '../../../src/api/selectors/field.ts';

const dir = await mkdtemp(join(tmpdir(), 'orch-index-'));
after(() => rm(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
const pod = (name: string, nodeName?: string) => enc.encode(JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: nodeName === undefined ? {} : { nodeName } }));
const key = (name: string) => `/registry/pods/default/${name}`;
const prefix = '/registry/pods/';

function collect(events: WatchEvent[][]) {
  return events.flat().map(e => `${e.type} ${e.kv.key.split('/').pop()}`);
}

test('index hints come from exact spec.nodeName selectors on pods only, empty value included', () => {
  assert.deepEqual(indexHintFor({ group: '', resource: 'pods' }, parseFieldSelector('spec.nodeName=n1')), { name: 'spec.nodeName', value: 'n1' });
  assert.deepEqual(indexHintFor({ group: '', resource: 'pods' }, parseFieldSelector('spec.nodeName=')), { name: 'spec.nodeName', value: '' });
  assert.equal(indexHintFor({ group: '', resource: 'pods' }, parseFieldSelector('spec.nodeName!=n1')), undefined);
  assert.equal(indexHintFor({ group: 'apps', resource: 'pods' }, parseFieldSelector('spec.nodeName=n1')), undefined);
});

test('reads and watches pinned to a node see only that node\'s pods', async () => {
  const storage = createCacher(await openSqliteStorage({ path: join(dir, 'a.sqlite') }), { indexers: storageIndexers() });
  try {
    await storage.create(key('a'), pod('a', 'n1'));
    await storage.create(key('b'), pod('b', 'n2'));
    const c = await storage.create(key('c'), pod('c'));
    await storage.ready(prefix);

    const onN1 = await storage.range(prefix, prefixEnd(prefix), { index: { name: 'spec.nodeName', value: 'n1' } });
    assert.deepEqual(onN1.kvs.map(kv => kv.key), [key('a')]);
    const all = await storage.range(prefix, prefixEnd(prefix));
    assert.equal(all.kvs.length, 3);

    const seen: Record<string, WatchEvent[][]> = { n1: [], n2: [], '': [], all: [] };
    const watchers = ['n1', 'n2', ''].map(v => storage.watch(prefix, { afterRevision: c.modRevision, index: { name: 'spec.nodeName', value: v }, onEvents: e => { seen[v]!.push(e); }, onError: () => {} }));
    watchers.push(storage.watch(prefix, { afterRevision: c.modRevision, onEvents: e => { seen.all!.push(e); }, onError: () => {} }));

    const bound = await storage.update(key('c'), pod('c', 'n1'), c.modRevision); // '' → n1
    await storage.update(key('b'), pod('b', 'n2'), (await storage.get(key('b'))).kv!.modRevision);
    await storage.delete(key('a'));
    await storage.create(key('d'), pod('d'));
    await new Promise(r => setTimeout(r, 100));
    assert.deepEqual(collect(seen.n1!), ['put c', 'delete a']);
    assert.deepEqual(collect(seen.n2!), ['put b']);
    assert.deepEqual(collect(seen['']!), ['put c', 'put d'], 'the unassigned watcher sees the pod leave');
    assert.deepEqual(collect(seen.all!), ['put c', 'put b', 'delete a', 'put d']);

    // resuming from history applies the same rule
    const replay: WatchEvent[][] = [];
    const w = storage.watch(prefix, { afterRevision: c.modRevision, index: { name: 'spec.nodeName', value: 'n1' }, onEvents: e => { replay.push(e); }, onError: () => {} });
    await new Promise(r => setTimeout(r, 50));
    assert.deepEqual(collect(replay), ['put c', 'delete a']);
    w.cancel();
    for (const x of watchers) x.cancel();
    assert.ok(bound.modRevision > c.modRevision);
    const after = await storage.range(prefix, prefixEnd(prefix), { index: { name: 'spec.nodeName', value: 'n1' } });
    assert.deepEqual(after.kvs.map(kv => kv.key), [key('c')]);
    const page = await storage.range(prefix, prefixEnd(prefix), { index: { name: 'spec.nodeName', value: '' }, limit: 1 });
    assert.deepEqual([page.kvs.map(kv => kv.key), page.more, page.count], [[key('d')], false, 1]);
  } finally {
    await storage.close();
  }
});
