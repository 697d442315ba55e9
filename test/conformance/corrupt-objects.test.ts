// Corrupt objects on every storage backend, damaged where an operator's mistake or a broken disk
// would damage them: an object written through the registry has its stored bytes replaced
// underneath it — in the SQLite file by SQL while the server is down, and in etcd by a raw put
// (as `etcdctl put` would) while the watch cache follows it. Then, as the server reads them:
// a get fails naming the key, a list names every corrupt key, and only the unsafe delete
// (GenericStore.deleteCorrupt) removes the object, which a readable object refuses.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { GenericStore } from '../../src/registry/store.ts';
import { strategyFor } from '../../src/registry/strategies.ts';
import { statusFromError } from '../../src/registry/storage-errors.ts';
import { createCatalog } from '../../src/schema/catalog.ts';
import { createCacher } from '../../src/storage/cacher/cacher.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/store.ts';
import { EtcdStorage } from '../../src/storage/etcd/store.ts';
import type { Storage } from '../../src/storage/interface.ts';
import { etcdBinary, startEtcd, type EtcdCluster } from '../support/etcd.ts';
import { requires } from '../support/requires.ts';

const catalog = createCatalog();
const cms = catalog.lookup('', 'v1', 'configmaps')!;
const key = (name: string) => `/registry/configmaps/default/${name}`;
const garbage = new TextEncoder().encode('\x00\x01not an object');
const registry = (storage: Storage) => new GenericStore({ storage, strategyFor });
const statusOf = async (p: Promise<unknown>) => p.then(() => undefined, err => statusFromError(err).status);

/** the checks, on a registry whose objects `bad1`, `bad2` are corrupt and `good` is not */
async function corruptBehaviour(store: GenericStore, settle: () => Promise<unknown> = async () => {}): Promise<void> {
  const get = await statusOf(store.get(cms, 'default', 'bad1'));
  assert.equal(get?.code, 500);
  assert.match(get!.message!, /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad1, ResourceVersion: 0, AdditionalErrorMsg: failed to decode/);
  // one at a time: a second list rejecting before anyone awaits it is an unhandled rejection
  for (const list of [() => store.list(cms, 'default'), () => store.listJson(cms, 'default')]) {
    const s = await statusOf(list());
    assert.deepEqual([s?.code, s?.reason, s?.message], [500, 'StoreReadError', 'failed to read one or more configmaps from the storage']);
    assert.deepEqual(s!.details!.causes!.map(c => c.field), [key('bad1'), key('bad2')]);
  }
  const refused = await statusOf(store.deleteCorrupt(cms, 'default', 'good'));
  assert.equal(refused?.code, 422);
  await store.deleteCorrupt(cms, 'default', 'bad1');
  await store.deleteCorrupt(cms, 'default', 'bad2');
  await settle();
  assert.equal((await statusOf(store.get(cms, 'default', 'bad1')))?.code, 404);
  assert.deepEqual((await store.list(cms, 'default')).items.map(o => o.metadata.name), ['good']);
}

async function seed(store: GenericStore): Promise<void> {
  for (const name of ['bad1', 'bad2', 'good']) await store.create(cms, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
}

describe('corrupt objects', () => {
  test('SQLite: bytes replaced in the file while the server is down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'authzmisc-corrupt-'));
    const path = join(dir, 'db.sqlite');
    try {
      const first = await openSqliteStorage({ path });
      await seed(registry(first));
      await first.close();
      const db = new DatabaseSync(path);
      for (const name of ['bad1', 'bad2']) db.prepare('UPDATE kv SET value = ? WHERE id = (SELECT id FROM live WHERE name = ?)').run(garbage, key(name));
      db.close();
      const storage = createCacher(await openSqliteStorage({ path }), { freshWaitMs: 200 });
      try {
        await corruptBehaviour(registry(storage));
      } finally {
        await storage.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('etcd', requires(!etcdBinary() && 'etcd is not installed (apt-get install etcd-server)'), () => {
    let etcd: EtcdCluster | undefined;
    after(async () => { await etcd?.close(); });
    test('bytes replaced by a raw put under the watch cache', async () => {
      etcd = await startEtcd();
      const raw = new EtcdStorage({ endpoints: etcd.endpoints, prefix: '/registry' });
      const storage = createCacher(raw, { freshWaitMs: 200 });
      try {
        const store = registry(storage);
        await seed(store);
        for (const name of ['bad1', 'bad2']) {
          const { kv } = await raw.get(key(name));
          await raw.update(key(name), garbage, kv!.modRevision);
        }
        // the watch cache follows etcd a moment behind its writes
        const settle = async () => storage.waitForRevision?.(await raw.currentRevision(), 5000);
        await settle();
        await corruptBehaviour(store, settle);
      } finally {
        await storage.close();
      }
    });
  });
});
