// Waiting for a Deployment to become available as users of the client libraries write it: an
// @kubernetes/client-node informer, and the Python client's watch (python3-kubernetes), against
// orch server with a simulated node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { startNodePool } from '../support/node-pool.ts';
import { skipForMissing } from '../support/requires.ts';
import { startOrch } from './support/orch-process.ts';

const run = promisify(execFile);
const image = 'registry.local/app:1.0';

test('client libraries wait for a Deployment to become available', { timeout: 180_000 }, async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [image] });
  t.after(() => pool.stop());

  await t.test('@kubernetes/client-node: an informer on deployments sees it Available', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(orch.kubeconfig);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const labels = { app: 'node-web' };
    await apps.createNamespacedDeployment({ namespace: 'default', body: {
      metadata: { name: 'node-web' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image }] } } },
    } });
    const informer = k8s.makeInformer(kc, '/apis/apps/v1/namespaces/default/deployments', () => apps.listNamespacedDeployment({ namespace: 'default' }));
    const available = new Promise<k8s.V1Deployment>((resolve, reject) => {
      const check = (d: k8s.V1Deployment) => {
        const cond = d.status?.conditions?.find(c => c.type === 'Available');
        if (d.metadata?.name === 'node-web' && (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) && d.status?.availableReplicas === 3 && d.status?.updatedReplicas === 3 && cond?.status === 'True') resolve(d);
      };
      informer.on('add', check);
      informer.on('update', check);
      informer.on('error', reject);
      setTimeout(() => reject(new Error('not available in 60 s')), 60_000).unref();
    });
    await informer.start();
    const d = await available.finally(() => informer.stop());
    assert.equal(d.status?.conditions?.find(c => c.type === 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(d.status?.conditions?.find(c => c.type === 'Progressing')?.reason, 'NewReplicaSetAvailable');
  });

  await t.test('python3-kubernetes: a watch on the Deployment until Available', async t => {
    try {
      await run('/usr/bin/python3', ['-c', 'import kubernetes']);
    } catch {
      return t.skip(skipForMissing('/usr/bin/python3 with the kubernetes module not installed (apt-get install python3-kubernetes)'));
    }
    const { stdout } = await run('/usr/bin/python3', [join(import.meta.dirname, 'python/wait_deployment.py'), orch.kubeconfig], { timeout: 90_000 });
    const done = JSON.parse(stdout.trim().split('\n').pop()!);
    assert.ok(done, 'the watch saw it available');
    assert.deepEqual([done.available, done.reason], [3, 'MinimumReplicasAvailable']);
  });
});
