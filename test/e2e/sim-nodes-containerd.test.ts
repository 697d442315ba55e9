// Simulated nodes beside a real node agent on containerd, in one cluster: pods meant for the
// simulated nodes run there, and a pod that selects the real node by its hostname label runs in
// a real container, whose output its log shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/api/log.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startSimNodePool } from '../../src/sim-nodes/sim-node-pool.ts';
import { simNodeLabel } from '../../src/sim-nodes/sim-node.ts';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxImage as image, startContainerdCluster } from './support/containerd-cluster.ts';
import { until } from './support/until.ts';

test('simulated nodes and a node agent on containerd in one cluster', { timeout: 120_000 }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const cluster = await startContainerdCluster(t, 'simmix');
  const client = createClient(await loadKubeconfig(cluster.orch.kubeconfig));
  t.after(() => client.close());
  const pool = await startSimNodePool({ client, count: 2, prefix: 'simmix', log: silentLogger });
  t.after(() => pool.stop());

  await until('three Ready nodes', async () => {
    const items = (await client.list('/api/v1/nodes')).items;
    return items.length === 3 && items.every((n: any) => n.status?.conditions?.find((c: any) => c.type === 'Ready')?.status === 'True');
  }, 30_000);

  await client.create('/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'sim' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'sim' } }, template: { metadata: { labels: { app: 'sim' } }, spec: { nodeSelector: { [simNodeLabel]: 'true' }, containers: [{ name: 'c', image }] } } },
  });
  await client.create('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'on-real' },
    spec: { nodeSelector: { 'kubernetes.io/hostname': cluster.node }, containers: [{ name: 'c', image, command: ['sh', '-c', 'echo hello from containerd; sleep 3600'] }] },
  });
  const sims = await until('the simulated pods Running', async () => {
    const items = (await client.list('/api/v1/namespaces/default/pods', { labelSelector: 'app=sim' })).items;
    return items.length === 3 && items.every((p: any) => p.status?.phase === 'Running') && items;
  }, 30_000);
  for (const p of sims) assert.ok(pool.names.includes(p.spec.nodeName), p.spec.nodeName);
  const real = await until('the pod on the real node Running', async () => { const p = await client.get('/api/v1/namespaces/default/pods/on-real'); return p.status?.phase === 'Running' && p; }, 60_000);
  assert.equal(real.spec.nodeName, cluster.node);
  assert.match(real.status.containerStatuses[0].containerID, /^containerd:\/\//);
  const log = await until('its log', async () => { const l = String(await client.request('GET', '/api/v1/namespaces/default/pods/on-real/log', undefined, { headers: { accept: 'text/plain' } })); return l.includes('hello from containerd') && l; }, 20_000);
  assert.equal(log.trim(), 'hello from containerd');
});
