// Scale on the simulated runtime: 20 nodes (real agents, in this process, each on its own
// `orch runtime-sim`), 600 pods created at once, all scheduled and Running, spread across
// the nodes; then deleted, and every one leaves the API once its node has stopped it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

async function inBatches(n: number, parallel: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => { while (next < n) await fn(next++); }));
}

const image = 'registry.local/app:1.0';
const list = async (c: RawClient) => (await c.request('GET', '/api/v1/namespaces/default/pods')).json().items as any[];

test('20 simulated nodes run 600 pods: scheduled, Running, spread; deleted and gone', async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 20, images: [image] });
  t.after(() => pool.stop());
  const c = rawClient(orch.kubeconfig);
  await until('20 Ready nodes', async () => {
    const nodes = (await c.request('GET', '/api/v1/nodes')).json().items;
    return nodes.filter((n: any) => n.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True')).length === 20;
  }, 30_000);

  const started = Date.now();
  await inBatches(600, 32, async i => {
    const body = { metadata: { name: `app-${i}`, labels: { app: 'scale' } }, spec: { containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'], resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } };
    const r = await c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 201, r.body);
  });
  const running = await until('600 pods Running', async () => {
    const pods = await list(c);
    return pods.filter(p => p.status?.phase === 'Running' && p.status.podIP).length === 600 && pods;
  }, 120_000);
  console.log(`# 600 pods Running on 20 simulated nodes ${Date.now() - started} ms after the first create`);
  const perNode = new Map<string, number>();
  for (const p of running) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  assert.equal(perNode.size, 20, 'every node runs pods');
  assert.ok(Math.max(...perNode.values()) <= 110, 'no node over its pod capacity');
  assert.equal(new Set(running.map(p => p.status.podIP)).size, 600, 'every pod has its own IP');

  const del = await c.request('DELETE', '/api/v1/namespaces/default/pods?labelSelector=app%3Dscale');
  assert.equal(del.status, 200, del.body);
  await until('every pod gone', async () => (await list(c)).length === 0, 120_000);
});
