// The etcd backend through a member that stops answering for a while: requests time out while it
// is away and succeed as soon as it answers again (the etcd3 client's default circuit breaker
// would refuse every request for 5 s more after three failed attempts, a 503 from a healthy cluster).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EtcdStorage } from '../../../src/storage/etcd/store.ts';
import { requires } from '../../support/requires.ts';
import { etcdBinary, startEtcd } from '../../support/etcd.ts';

test('a member that was stopped answers at once when it comes back', requires(!etcdBinary() && 'etcd is not installed'), async t => {
  const etcd = await startEtcd();
  t.after(() => etcd.close());
  const store = new EtcdStorage({ endpoints: etcd.endpoints, requestTimeoutMs: 300 });
  t.after(() => store.close());
  await store.get('/registry/configmaps/default/a');
  const pid = etcd.pid(0)!;
  process.kill(pid, 'SIGSTOP');
  try {
    await assert.rejects(store.get('/registry/configmaps/default/a'));
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  const t0 = performance.now();
  const r = await store.get('/registry/configmaps/default/a');
  assert.ok(r.revision > 0);
  assert.ok(performance.now() - t0 < 2000, `answered after ${performance.now() - t0} ms`);
});
