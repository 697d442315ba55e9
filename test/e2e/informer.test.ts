// An @kubernetes/client-node informer keeps an exact mirror of 2,000 objects under continuous
// writes, across a forced disconnect (the server is restarted on the same port and data).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as k8s from '@kubernetes/client-node';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';

function freePort(): Promise<number> {
  return new Promise(r => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => r(p)); }); });
}

test('informer mirror survives writes and a server restart', async () => {
  const port = await freePort();
  let orch = await startOrch({ port });
  const dataDir = orch.dataDir;
  const c = rawClient(orch.kubeconfig);
  const ns = 'mirror';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  await c.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: ns } }) });
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(orch.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, base, () => core.listNamespacedConfigMap({ namespace: ns }));
  let finished = false;
  // client-node leaves restarting after an error to its user, as controllers do
  informer.on('error', () => { if (!finished) setTimeout(() => { if (!finished) void informer.start().catch(() => {}); }, 200); });
  await informer.start();

  let stop = false;
  let down = false;
  const writer = async (w: number) => {
    let i = 0;
    while (!stop) {
      const name = `o-${w}-${i % 250}`;
      try {
        const op = i < 250 ? 'create' : i % 5 === 0 ? 'delete' : 'update';
        if (op === 'create') await c.request('POST', base, { body: JSON.stringify({ metadata: { name }, data: { v: '0' } }) });
        else if (op === 'delete') await c.request('DELETE', `${base}/${name}`);
        else {
          const r = await c.request('PUT', `${base}/${name}`, { body: JSON.stringify({ metadata: { name }, data: { v: String(i) } }) });
          if (r.status === 404) await c.request('POST', base, { body: JSON.stringify({ metadata: { name }, data: { v: String(i) } }) });
        }
      } catch {
        if (!down) throw new Error('write failed while the server was up');
        await new Promise(r => setTimeout(r, 50));
        continue;
      }
      i++;
    }
  };
  const writers = Array.from({ length: 8 }, (_, w) => writer(w));
  await new Promise(r => setTimeout(r, 2500));
  down = true;
  await orch.stop();
  orch = await startOrch({ dataDir, port });
  down = false;
  await new Promise(r => setTimeout(r, 2500));
  stop = true;
  await Promise.all(writers);

  try {
    const truth = (await c.request('GET', base)).json().items as Array<{ metadata: { name: string; resourceVersion: string } }>;
    assert.ok(truth.length > 500, `enough objects (${truth.length})`);
    const want = new Map(truth.map(i => [i.metadata.name, i.metadata.resourceVersion]));
    const deadline = Date.now() + 15_000;
    let got = new Map<string, string>();
    while (Date.now() < deadline) {
      got = new Map(informer.list(ns).map(o => [o.metadata!.name!, o.metadata!.resourceVersion!]));
      if (got.size === want.size && [...want].every(([n, rv]) => got.get(n) === rv)) break;
      await new Promise(r => setTimeout(r, 200));
    }
    assert.deepEqual(got, want);
  } finally {
    finished = true;
    await informer.stop();
    await orch.stop();
    await orch.cleanup();
  }
});
