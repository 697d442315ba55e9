// Two API servers starting together on one storage both make and mark the local APIServices;
// the second to write finds the first's change and must read again, not fail its start (two
// `orch server`s started at once on one etcd did: "the object has been modified").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRegistry } from '../../support/registry.ts';
import { ensureLocalAPIServices } from '../../../../src/apiserver/aggregator/local-apiservices.ts';

test('the local APIServices made by two starts at once: both succeed, each Available once', async () => {
  const reg = await testRegistry();
  try {
    await Promise.all([ensureLocalAPIServices(reg.store, reg.catalog), ensureLocalAPIServices(reg.store, reg.catalog), ensureLocalAPIServices(reg.store, reg.catalog)]);
    const info = reg.info('apiregistration.k8s.io', 'apiservices');
    const items = (await reg.store.list(info, undefined)).items as Array<{ status?: { conditions?: Array<{ type: string; status: string; reason: string }> } }>;
    assert.ok(items.length > 10);
    for (const a of items) assert.deepEqual(a.status?.conditions?.map(c => [c.type, c.status, c.reason]), [['Available', 'True', 'Local']]);
  } finally { await reg.close(); }
});
