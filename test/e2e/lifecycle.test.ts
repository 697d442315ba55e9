// Start-up and graceful shutdown of a real `orch server` process.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';

test('SIGTERM with --shutdown-delay-duration: readyz fails first, requests are still served, then a clean exit', async () => {
  const orch = await startOrch({ args: ['--shutdown-delay-duration=1500ms'] });
  const c = rawClient(orch.kubeconfig);
  try {
    assert.equal((await c.request('GET', '/readyz')).status, 200);
    const exited = new Promise<number | null>(r => orch.child.once('exit', code => r(code)));
    orch.child.kill('SIGTERM');
    await new Promise(r => setTimeout(r, 300));
    const ready = await c.request('GET', '/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(ready.body, /\[-\]shutdown failed/);
    assert.equal((await c.request('GET', '/livez')).status, 200);
    assert.equal((await c.request('GET', '/api/v1/namespaces/default')).status, 200, 'still serving during the delay');
    assert.equal(await exited, 0);
  } finally {
    await orch.cleanup();
  }
});

test('a second start reuses the data dir: same CA, same objects', async () => {
  const first = await startOrch();
  const c1 = rawClient(first.kubeconfig);
  assert.equal((await c1.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'kept' } }) })).status, 201);
  await first.stop();
  const second = await startOrch({ dataDir: first.dataDir });
  try {
    const c2 = rawClient(second.kubeconfig);
    assert.equal((await c2.request('GET', '/api/v1/namespaces/default/configmaps/kept')).status, 200);
  } finally {
    await second.stop();
    await second.cleanup();
  }
});
