// Sharded list and watch (ShardedListAndWatch gate): four shards over [0, 2^64) partition 5,000
// objects exactly, for lists and for watches; the selector is echoed in metadata.shardInfo; a bad
// selector is a 400; with the gate off the parameter is ignored and no shardInfo appears.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../support/fake-request.ts';
import { apiServerFeatureGates, featureGates } from '../../../src/api/feature-gates.ts';

const cms = '/api/v1/namespaces/default/configmaps';
const count = 5000;
const bounds = ['0x0000000000000000', '0x4000000000000000', '0x8000000000000000', '0xc000000000000000', '0x10000000000000000'];
const shards = bounds.slice(0, 4).map((start, i) => `shardRange(object.metadata.uid, '${start}', '${bounds[i + 1]}')`);

let api: TestApi;
let startRv = '';
before(async () => {
  api = await testApi({ features: featureGates({ ShardedListAndWatch: true }, apiServerFeatureGates) });
  startRv = (await api.request('GET', cms)).json().metadata.resourceVersion;
  for (let i = 0; i < count; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, count - i) }, (_, j) => api.request('POST', cms, { body: { metadata: { name: `o${i + j}` } } })));
  }
});
after(() => api.close());

const q = (s: string) => encodeURIComponent(s);

test('lists: four shards partition the collection exactly, each saying which part it is', async () => {
  const seen = new Map<string, number>();
  for (const shard of shards) {
    const r = await api.request('GET', `${cms}?shardSelector=${q(shard)}`);
    assert.equal(r.status, 200, r.text());
    const list = r.json();
    assert.deepEqual(list.metadata.shardInfo, { selector: shard });
    // (the test registry's uids are sequential, which FNV-1a's high bits spread unevenly: not empty is what holds)
    assert.ok(list.items.length > 0);
    for (const item of list.items) seen.set(item.metadata.name, (seen.get(item.metadata.name) ?? 0) + 1);
  }
  assert.equal(seen.size, count);
  assert.ok([...seen.values()].every(n => n === 1), 'no object in two shards');
});

test('watches: four sharded watches from one resourceVersion see every object exactly once', async () => {
  const seen = new Map<string, number>();
  for (const shard of shards) {
    const r = await api.request('GET', `${cms}?watch=1&resourceVersion=${startRv}&timeoutSeconds=1&shardSelector=${q(shard)}`);
    for (const line of r.text().trim().split('\n')) {
      const ev = JSON.parse(line);
      assert.equal(ev.type, 'ADDED');
      seen.set(ev.object.metadata.name, (seen.get(ev.object.metadata.name) ?? 0) + 1);
    }
  }
  assert.equal(seen.size, count);
  assert.ok([...seen.values()].every(n => n === 1));
});

test('a selector that cannot be honoured is a 400 saying why', async () => {
  const r = await api.request('GET', `${cms}?shardSelector=${q("shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')")}`);
  assert.equal(r.status, 400);
  assert.equal(r.json().reason, 'BadRequest');
  assert.match(r.json().message, /unsupported field path object\.metadata\.name/);
});

test('with the gate off the selector is ignored: the whole collection, no shardInfo', async () => {
  const off = await testApi();
  try {
    await off.request('POST', cms, { body: { metadata: { name: 'x' } } });
    const r = await off.request('GET', `${cms}?shardSelector=${q(shards[0]!)}`);
    assert.equal(r.status, 200);
    assert.equal(r.json().items.length, 1);
    assert.equal(r.json().metadata.shardInfo, undefined);
    const bad = await off.request('GET', `${cms}?shardSelector=nonsense((`);
    assert.equal(bad.status, 200, 'not even parsed');
  } finally {
    await off.close();
  }
});
