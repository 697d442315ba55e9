// The storage conformance suite (storage-suite.ts) against a real etcd, each store under a key
// root of its own; and the watch cache layered on it.

import { after, before, test } from 'node:test';
import type { Storage } from '../../src/storage/interface.ts';
import { EtcdStorage } from '../../src/storage/etcd/store.ts';
import { createCacher } from '../../src/storage/cacher/cacher.ts';
import { storageConformance } from './storage-suite.ts';
import { etcdBinary, startEtcd, type EtcdCluster } from '../support/etcd.ts';
import { requires } from '../support/requires.ts';

if (!etcdBinary()) {
  console.log('# skipping etcd storage conformance: etcd is not installed (apt-get install etcd-server)');
  test('etcd storage conformance', requires('etcd is not installed'), () => {});
} else {
  // one etcd per suite: compaction is global to an etcd, and each suite compacts
  let etcd: EtcdCluster;
  let cached: EtcdCluster;
  before(async () => { [etcd, cached] = await Promise.all([startEtcd(), startEtcd()]); });
  after(async () => { await etcd?.close(); await cached?.close(); });
  const prefixes = new WeakMap<Storage, string>();
  let n = 0;
  const openAt = (prefix: string, on: () => EtcdCluster = () => etcd): Storage => {
    const s = new EtcdStorage({ endpoints: on().endpoints, prefix });
    prefixes.set(s, prefix);
    return s;
  };
  storageConformance('etcd', async () => openAt(`/c${n++}/registry`), {
    unordered: true,
    compactionIsAWrite: true,
    async reopen(s) {
      await s.close();
      return openAt(prefixes.get(s)!);
    },
  });
  storageConformance('cacher over etcd', async () => createCacher(openAt(`/k${n++}/registry`, () => cached), { freshWaitMs: 200 }), {
    unordered: true, compactionIsAWrite: true,
    // etcd's progress requests are not reachable through the etcd3 client; the cache answers
    // them for the watches it serves, but a watch from before the cache's history goes to etcd
    noProgressRequests: 'progress requests are not offered by the etcd backend',
  });
}
