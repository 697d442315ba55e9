// Every create that got a 201 survives a kill -9 of the server, with its resourceVersion.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';

test('acknowledged creates survive kill -9', async () => {
  const orch = await startOrch();
  const c = rawClient(orch.kubeconfig);
  const acked = new Map<string, string>();
  let stop = false;
  let n = 0;
  const worker = async (w: number) => {
    while (!stop) {
      const name = `w${w}-${n++}`;
      try {
        const r = await c.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name }, data: { n: String(n) } }) });
        if (r.status === 201) acked.set(name, r.json().metadata.resourceVersion);
      } catch {
        return; // the server is gone
      }
    }
  };
  const workers = Array.from({ length: 16 }, (_, i) => worker(i));
  while (acked.size < 300) await new Promise(r => setTimeout(r, 20));
  await orch.kill();
  stop = true;
  await Promise.all(workers);
  assert.ok(acked.size >= 300);

  const again = await startOrch({ dataDir: orch.dataDir });
  try {
    const c2 = rawClient(again.kubeconfig);
    const list = (await c2.request('GET', '/api/v1/namespaces/default/configmaps')).json();
    const stored = new Map<string, string>(list.items.map((i: any) => [i.metadata.name, i.metadata.resourceVersion]));
    for (const [name, rv] of acked) assert.equal(stored.get(name), rv, `acknowledged ${name} at ${rv} is missing or changed`);
  } finally {
    await again.stop();
    await again.cleanup();
  }
});
