// Every cell of the spec's get / list / watch resourceVersion tables (000 §4.7) and the error
// rows of §7 that concern them, against a real server.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
const cms = '/api/v1/namespaces/rv/configmaps';
let rvA = 0, rvB = 0;

async function create(name: string): Promise<number> {
  const r = await c.request('POST', cms, { body: JSON.stringify({ metadata: { name } }) });
  assert.equal(r.status, 201, r.body);
  return Number(r.json().metadata.resourceVersion);
}

const names = (r: { json(): any }) => r.json().items.map((i: any) => i.metadata.name);

before(async () => {
  // no kube-root-ca.crt publisher: these tables are about configmaps this test alone writes
  orch = await startOrch({ args: ['--controllers', '*,-root-ca-certificate-publisher-controller'] });
  c = rawClient(orch.kubeconfig);
  await c.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'rv' } }) });
  rvA = await create('a');
  rvB = await create('b');
  await create('c');
});
after(async () => { await orch.stop(); await orch.cleanup(); });

describe('get', () => {
  test('unset, "0" and a reached version read the newest; a future version times out with 504', async () => {
    for (const q of ['', '?resourceVersion=0', `?resourceVersion=${rvA}`]) assert.equal((await c.request('GET', `${cms}/a${q}`)).status, 200, q);
    const r = await c.request('GET', `${cms}/a?resourceVersion=${rvB + 1000}`);
    assert.equal(r.status, 504);
    assert.equal(r.json().reason, 'Timeout');
    assert.match(r.json().message, /Too large resource version/);
    assert.equal(r.headers['retry-after'], '1');
  });
});

describe('list', () => {
  test('no match, no limit: Most Recent / Any / Not older than', async () => {
    for (const q of ['', '?resourceVersion=0', `?resourceVersion=${rvA}`]) {
      const r = await c.request('GET', `${cms}${q}`);
      assert.deepEqual(names(r), ['a', 'b', 'c'], q);
      assert.ok(Number(r.json().metadata.resourceVersion) >= rvB);
    }
  });

  test('no match, limit: a version is Exact', async () => {
    const r = await c.request('GET', `${cms}?limit=10&resourceVersion=${rvA}`);
    assert.deepEqual(names(r), ['a']);
    assert.equal(r.json().metadata.resourceVersion, String(rvA));
    assert.deepEqual(names(await c.request('GET', `${cms}?limit=10&resourceVersion=0`)), ['a', 'b', 'c']);
  });

  test('continue: continuation at the first page version; a version with continue is 400', async () => {
    const p1 = await c.request('GET', `${cms}?limit=1`);
    const token = p1.json().metadata.continue;
    assert.ok(token);
    assert.equal(p1.json().metadata.remainingItemCount, 2);
    await create('d');
    const p2 = await c.request('GET', `${cms}?limit=5&continue=${encodeURIComponent(token)}`);
    assert.deepEqual(names(p2), ['b', 'c'], 'a consistent snapshot: d is not in it');
    assert.equal(p2.json().metadata.resourceVersion, p1.json().metadata.resourceVersion);
    assert.equal(p2.json().metadata.continue, undefined);
    assert.equal((await c.request('GET', `${cms}?limit=5&continue=${encodeURIComponent(token)}&resourceVersion=0`)).status, 200);
    const bad = await c.request('GET', `${cms}?limit=5&continue=${encodeURIComponent(token)}&resourceVersion=${rvA}`);
    assert.equal(bad.status, 400);
    assert.equal((await c.request('GET', `${cms}?limit=5&continue=garbage`)).status, 400);
  });

  test('Exact: needs a version other than "0"; reads exactly at it', async () => {
    for (const q of ['', '&resourceVersion=0']) {
      for (const limit of ['', '&limit=2']) {
        const r = await c.request('GET', `${cms}?resourceVersionMatch=Exact${q}${limit}`);
        assert.equal(r.status, 422, `${q}${limit}`);
        assert.equal(r.json().reason, 'Invalid');
      }
    }
    const r = await c.request('GET', `${cms}?resourceVersionMatch=Exact&resourceVersion=${rvB}`);
    assert.deepEqual(names(r), ['a', 'b']);
    assert.equal(r.json().metadata.resourceVersion, String(rvB));
    const paged = await c.request('GET', `${cms}?resourceVersionMatch=Exact&resourceVersion=${rvB}&limit=1`);
    assert.deepEqual(names(paged), ['a']);
  });

  test('NotOlderThan: invalid unset; "0" is Any; a version is Not older than', async () => {
    assert.equal((await c.request('GET', `${cms}?resourceVersionMatch=NotOlderThan`)).status, 422);
    for (const q of ['0', String(rvA)]) {
      for (const limit of ['', '&limit=10']) {
        const r = await c.request('GET', `${cms}?resourceVersionMatch=NotOlderThan&resourceVersion=${q}${limit}`);
        assert.equal(r.status, 200);
        assert.ok(names(r).includes('c'), 'newest data');
      }
    }
    assert.equal((await c.request('GET', `${cms}?resourceVersionMatch=Bogus&resourceVersion=1`)).status, 422);
  });
});

describe('watch', () => {
  test('unset and "0": the current state as ADDED, then changes', async () => {
    for (const q of ['', '&resourceVersion=0']) {
      const w = await c.watch(`${cms}?watch=1${q}`);
      await w.waitFor(3);
      assert.deepEqual(w.events.slice(0, 3).map(e => [e.type, e.object.metadata.name]), [['ADDED', 'a'], ['ADDED', 'b'], ['ADDED', 'c']]);
      w.close();
    }
  });

  test('a version: exactly the events after it, in order', async () => {
    const w = await c.watch(`${cms}?watch=1&resourceVersion=${rvA}`);
    const later = names(await c.request('GET', cms)).length - 1; // every object but a
    await w.waitFor(later);
    assert.deepEqual(w.events.slice(0, 2).map(e => [e.type, e.object.metadata.name]), [['ADDED', 'b'], ['ADDED', 'c']]);
    assert.ok(w.events.every(e => e.object.metadata.name !== 'a'), 'nothing at or before the version');
    await c.request('DELETE', `${cms}/b`);
    await w.waitFor(later + 1);
    const last = w.events.at(-1)!;
    assert.deepEqual([last.type, last.object.metadata.name], ['DELETED', 'b']);
    w.close();
  });

  test('a version not reached yet: the watch waits for it', async () => {
    const now = Number((await c.request('GET', cms)).json().metadata.resourceVersion);
    const w = await c.watch(`${cms}?watch=1&resourceVersion=${now + 1}`);
    await create('skipped');
    await create('seen');
    await w.waitFor(1);
    assert.deepEqual(w.events.map(e => e.object.metadata.name), ['seen']);
    w.close();
  });

  test('sendInitialEvents: state, then a bookmark marking its end, then changes', async () => {
    const w = await c.watch(`${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const count = names(await c.request('GET', cms)).length;
    await w.waitFor(count + 1);
    assert.ok(w.events.slice(0, count).every(e => e.type === 'ADDED'));
    const bm = w.events[count]!;
    assert.equal(bm.type, 'BOOKMARK');
    assert.equal(bm.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    assert.match(bm.object.metadata.resourceVersion, /^\d+$/);
    assert.equal(bm.object.kind, 'ConfigMap');
    w.close();
    const bad = await c.request('GET', `${cms}?watch=1&sendInitialEvents=true`);
    assert.equal(bad.status, 422);
    assert.equal((await c.request('GET', `${cms}?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1`)).status, 422);
  });
});

describe('bookmarks and timeouts', () => {
  test('periodic bookmarks carry only the resourceVersion; timeoutSeconds ends the stream', async () => {
    const fast = await startOrch({ args: ['--watch-bookmark-interval=200ms', '--controllers', '*,-root-ca-certificate-publisher-controller'] });
    try {
      const s = rawClient(fast.kubeconfig);
      const w = await s.watch('/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1&allowWatchBookmarks=true');
      await w.waitFor(2);
      for (const e of w.events.slice(0, 2)) {
        assert.equal(e.type, 'BOOKMARK');
        // Kubernetes 1.33 and later leave the unset creationTimestamp out (omitzero)
        assert.deepEqual(Object.keys(e.object.metadata), ['resourceVersion']);
      }
      w.close();
      const started = Date.now();
      const r = await s.request('GET', '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1&timeoutSeconds=1');
      assert.equal(r.status, 200);
      assert.ok(Date.now() - started >= 900 && Date.now() - started < 5000);
    } finally {
      await fast.stop();
      await fast.cleanup();
    }
  });
});

describe('history', () => {
  test('after compaction: Exact at a compacted version is 410, a watch from it ends with an ERROR 410 Expired', async () => {
    const short = await startOrch({ args: ['--etcd-compaction-interval=300ms'] });
    try {
      const s = rawClient(short.kubeconfig);
      const first = Number((await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'x' } }) })).json().metadata.resourceVersion);
      for (let i = 0; i < 3; i++) {
        await new Promise(r => setTimeout(r, 400));
        await s.request('PUT', '/api/v1/namespaces/default/configmaps/x', { body: JSON.stringify({ metadata: { name: 'x' }, data: { i: String(i) } }) });
      }
      await new Promise(r => setTimeout(r, 700));
      const exact = await s.request('GET', `/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact&resourceVersion=${first}`);
      assert.equal(exact.status, 410);
      assert.equal(exact.json().reason, 'Expired');
      const w = await s.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${first - 1}`);
      await w.waitFor(1);
      assert.equal(w.events[0]!.type, 'ERROR');
      assert.equal(w.events[0]!.object.code, 410);
      assert.equal(w.events[0]!.object.reason, 'Expired');
      w.close();
    } finally {
      await short.stop();
      await short.cleanup();
    }
  });
});
