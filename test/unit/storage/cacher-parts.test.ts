// The watch cache's pieces on their own: prefix mapping, the sorted index and snapshot
// reconstruction checked against a brute-force model of every past state.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourcePrefixOf, resourcePrefixOfRange } from '../../../src/storage/cacher/prefixes.ts';
import { StoreIndex } from '../../../src/storage/cacher/store-index.ts';
import { EventBuffer } from '../../../src/storage/cacher/event-buffer.ts';
import { rangeAt } from '../../../src/storage/cacher/snapshots.ts';
import { prefixEnd, type KeyValue } from '../../../src/storage/interface.ts';

test('resource prefixes', () => {
  assert.equal(resourcePrefixOf('/registry/pods/default/web'), '/registry/pods/');
  assert.equal(resourcePrefixOf('/registry/deployments.apps/default/web'), '/registry/deployments.apps/');
  assert.equal(resourcePrefixOf('/registry/namespaces/kube-system'), '/registry/namespaces/');
  assert.equal(resourcePrefixOf('/registry/pods/'), '/registry/pods/');
  assert.equal(resourcePrefixOf('/registry/'), undefined);
  assert.equal(resourcePrefixOf('/registry/pods'), undefined);
  assert.equal(resourcePrefixOf('/t/a'), '/t/');
  assert.equal(resourcePrefixOf('plain'), undefined);
  assert.equal(resourcePrefixOfRange('/registry/pods/ns/', prefixEnd('/registry/pods/ns/')), '/registry/pods/');
  assert.equal(resourcePrefixOfRange('/registry/pods/ns/a\x00', prefixEnd('/registry/pods/')), '/registry/pods/');
  assert.equal(resourcePrefixOfRange('/registry/pods/', prefixEnd('/registry/')), undefined);
});

test('snapshots rebuilt from the event buffer equal every past state', () => {
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const states: Array<Map<string, KeyValue>> = [new Map()]; // states[r]: the model at revision r
  const index = new StoreIndex();
  const buffer = new EventBuffer(0);
  for (let rev = 1; rev <= 400; rev++) {
    const cur = new Map(states[rev - 1]!);
    const key = `/p/ns${Math.floor(random() * 3)}/k${Math.floor(random() * 15)}`;
    const before = cur.get(key);
    if (before && random() < 0.3) {
      cur.delete(key);
      index.remove(key);
      buffer.push({ revision: rev, at: 0, event: { type: 'delete', kv: { key, value: new Uint8Array(), createRevision: before.createRevision, modRevision: rev }, prevKv: before }, before });
    } else {
      const kv: KeyValue = { key, value: new Uint8Array([rev & 255]), createRevision: before?.createRevision ?? rev, modRevision: rev };
      cur.set(key, kv);
      index.put(kv);
      buffer.push({ revision: rev, at: 0, event: { type: 'put', kv, prevKv: before }, before });
    }
    states.push(cur);
  }
  const model = (rev: number, start: string, end: string, limit: number) => {
    const keys = [...states[rev]!.keys()].filter(k => k >= start && k < end).sort();
    const shown = limit ? keys.slice(0, limit) : keys;
    return { keys: shown.map(k => `${k}@${states[rev]!.get(k)!.modRevision}`), more: shown.length < keys.length, count: keys.length };
  };
  for (let rev = 0; rev <= 400; rev += 7) {
    for (const [start, end, limit] of [['/p/', '/p0', 0], ['/p/', '/p0', 4], ['/p/ns1/', '/p/ns10', 0], ['/p/ns0/k3\x00', '/p0', 5]] as const) {
      const got = rangeAt(index, buffer, start, end, rev, limit);
      assert.deepEqual({ keys: got.kvs.map(kv => `${kv.key}@${kv.modRevision}`), more: got.more, count: got.count }, model(rev, start, end, limit), `${start} limit ${limit} at ${rev}`);
    }
  }
  // trimming by count raises the floor to the newest dropped revision
  buffer.trim(0, 100, Infinity, 0);
  assert.equal(buffer.floor, 300);
  assert.equal(buffer.length, 100);
  const at = rangeAt(index, buffer, '/p/', '/p0', 300, 0);
  assert.equal(at.count, model(300, '/p/', '/p0', 0).count);
});
