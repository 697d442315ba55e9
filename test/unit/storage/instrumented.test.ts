// The backend timed for etcd_request_duration_seconds: each call once, under its operation and
// the key's resource prefix; only real failures count as errors. Against SQLite and real etcd.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Storage } from '../../../src/storage/interface.ts';
import { instrumentStorage, type TimedOperation } from '../../../src/storage/instrumented.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import { EtcdStorage } from '../../../src/storage/etcd/store.ts';
import { etcdBinary, startEtcd } from '../../support/etcd.ts';
import { requires } from '../../support/requires.ts';

async function exercise(backend: Storage): Promise<Array<[TimedOperation, string, boolean]>> {
  const seen: Array<[TimedOperation, string, boolean]> = [];
  const s = instrumentStorage(backend, (op, prefix, seconds, failed) => {
    assert.ok(seconds >= 0 && seconds < 30);
    seen.push([op, prefix, failed]);
  });
  const v = (t: string) => new TextEncoder().encode(t);
  const kv = await s.create('/registry/deployments.apps/ns/d', v('1'));
  await assert.rejects(s.create('/registry/deployments.apps/ns/d', v('1')));
  await s.get('/registry/pods/ns/p');
  await s.range('/registry/pods/', '/registry/pods0');
  await assert.rejects(s.update('/registry/deployments.apps/ns/d', v('2'), kv.modRevision + 100));
  await s.update('/registry/deployments.apps/ns/d', v('2'), kv.modRevision);
  await s.delete('/registry/deployments.apps/ns/d');
  await s.close();
  return seen;
}

const expected = [
  ['create', '/registry/deployments.apps/', false],
  ['create', '/registry/deployments.apps/', false], // key-exists is an answer, not a failure
  ['get', '/registry/pods/', false],
  ['list', '/registry/pods/', false],
  ['update', '/registry/deployments.apps/', false], // a conflict likewise
  ['update', '/registry/deployments.apps/', false],
  ['delete', '/registry/deployments.apps/', false],
];

test('SQLite: every call timed under its operation and resource prefix', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'metrics-storage-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.deepEqual(await exercise(await openSqliteStorage({ path: join(dir, 'orch.db') })), expected);
});

test('etcd: the same calls, the same labels', requires(!etcdBinary() && 'etcd is not installed'), async t => {
  const etcd = await startEtcd();
  t.after(() => etcd.close());
  assert.deepEqual(await exercise(new EtcdStorage({ endpoints: etcd.endpoints })), expected);
});

test('a backend that cannot answer is counted as failed', async () => {
  const seen: boolean[] = [];
  const broken = { get: () => Promise.reject(new Error('connection refused')) } as unknown as Storage;
  await assert.rejects(instrumentStorage(broken, (_op, _p, _s, failed) => seen.push(failed)).get('/registry/pods/a/b'));
  assert.deepEqual(seen, [true]);
});
