// A 300-completion Job (parallelism 100) on two simulated nodes: every pod counted once
// through the tracking finalizer, no finalizer left behind, Complete at the end. Finished pods
// give their sandbox's address back, as on containerd, so a node runs more than its subnet's
// worth of them: the nodes here have a /25 (125 addresses) and run about 150 each, also more
// than their capacity of 110 pods. Prints how long it took; npm run bench runs larger Jobs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';

test('a 300-completion Job completes on two simulated nodes, past their pod subnets', async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 2, images: [image], podSubnetBits: 25 });
  t.after(() => pool.stop());
  const c = rawClient(orch.kubeconfig);
  await until('2 nodes', async () => (await c.request('GET', '/api/v1/nodes')).json().items.length === 2, 30_000);

  const started = Date.now();
  const body = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'big' }, spec: { completions: 300, parallelism: 100, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image, command: ['sh', '-c', 'exit 0'] }] } } } };
  const r = await c.request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, r.body);
  const job = await until('the job Complete', async () => {
    const j = (await c.request('GET', '/apis/batch/v1/namespaces/default/jobs/big')).json();
    return j.status?.conditions?.some((x: any) => x.type === 'Complete') && j;
  }, 300_000, 500);
  console.log(`# 300-completion job (parallelism 100) Complete on 2 simulated nodes (a /25 each) in ${Date.now() - started} ms`);
  assert.equal(job.status.succeeded, 300);
  assert.equal(job.status.failed ?? 0, 0);
  assert.equal(job.status.active, 0);
  const pods = (await c.request('GET', '/api/v1/namespaces/default/pods?labelSelector=job-name%3Dbig')).json().items;
  assert.equal(pods.length, 300, 'exactly one pod per completion');
  assert.ok(pods.every((p: any) => p.status.phase === 'Succeeded' && !(p.metadata.finalizers ?? []).length));
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  assert.ok(Math.max(...perNode.values()) > 125, `a node ran more pods than its /25 has addresses: ${JSON.stringify([...perNode])}`);
});
