// Simulated nodes against `orch server`: registered and heartbeating through their leases, pods
// scheduled onto them and run on the simulated runtime's model (exec readiness probes, programs
// that exit), and a node that stops: Unknown, tainted, its pods evicted and replaced elsewhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/api/log.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startSimNodePool } from '../../src/sim-nodes/sim-node-pool.ts';
import { simNodeLabel } from '../../src/sim-nodes/sim-node.ts';
import { startOrch } from './support/orch-process.ts';
import { until } from './support/until.ts';

const unreachable = 'node.kubernetes.io/unreachable';
const condition = (obj: any, type: string) => obj.status?.conditions?.find((c: any) => c.type === type);

test('simulated nodes: leases, pods run on their model, a stopped node evicted', async t => {
  const orch = await startOrch({ args: ['--node-monitor-grace-period=3s', '--node-monitor-period=300ms'] });
  t.after(() => orch.stop());
  const client = createClient(await loadKubeconfig(orch.kubeconfig));
  t.after(() => client.close());
  const pool = await startSimNodePool({ client, count: 3, prefix: 'sn', leaseDurationSeconds: 4, log: silentLogger });
  t.after(() => pool.stop());
  assert.deepEqual(pool.names, ['sn-0', 'sn-1', 'sn-2']);

  // registered as a node agent registers: Ready, sized, addressed, labelled
  const nodes = (await client.list('/api/v1/nodes', { labelSelector: `${simNodeLabel}=true` })).items;
  assert.deepEqual(nodes.map((n: any) => n.metadata.name).sort(), pool.names);
  const n0 = nodes.find((n: any) => n.metadata.name === 'sn-0');
  assert.equal(condition(n0, 'Ready').reason, 'KubeletReady');
  assert.equal(n0.status.allocatable.pods, '110');
  assert.deepEqual(n0.status.addresses, [{ type: 'InternalIP', address: '172.16.0.1' }, { type: 'Hostname', address: 'sn-0' }]);
  assert.equal(n0.spec.podCIDR, '10.128.0.0/24');
  // the lease is renewed every second here (a quarter of 4 s, plus up to 4 % jitter)
  const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/sn-1';
  const first = await until('sn-1 lease', () => client.get(leasePath).catch(() => undefined), 5_000);
  assert.equal(first.spec.holderIdentity, 'sn-1');
  assert.deepEqual(first.metadata.ownerReferences.map((r: any) => `${r.kind}/${r.name}`), ['Node/sn-1']);
  await until('the lease renewed', async () => (await client.get(leasePath)).spec.renewTime > first.spec.renewTime, 5_000);

  // a Deployment whose readiness probe is an exec in the container, and pods that end
  const podSpec = (extra: object) => ({
    nodeSelector: { [simNodeLabel]: 'true' },
    tolerations: [{ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }],
    ...extra,
  });
  await client.create('/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: {
      replicas: 3, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: podSpec({ containers: [{ name: 'c', image: 'registry.local/app:1.0', readinessProbe: { exec: { command: ['sh', '-c', 'test -f /etc/hostname'] }, periodSeconds: 1 } }] }) },
    },
  });
  await client.create('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fails' }, spec: podSpec({ restartPolicy: 'Never', containers: [{ name: 'c', image: 'registry.local/app:1.0', command: ['sh', '-c', 'sleep 1; exit 3'] }] }) });
  await client.create('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'host' }, spec: podSpec({ hostNetwork: true, nodeName: 'sn-2', containers: [{ name: 'c', image: 'registry.local/app:1.0' }] }) });
  await until('web available', async () => (await client.get('/apis/apps/v1/namespaces/default/deployments/web')).status?.availableReplicas === 3, 20_000);
  const pods = (await client.list('/api/v1/namespaces/default/pods', { labelSelector: 'app=web' })).items;
  for (const p of pods) {
    assert.ok(pool.names.includes(p.spec.nodeName), p.spec.nodeName);
    assert.match(p.status.podIP, /^10\.128\.[0-2]\.\d+$/);
    assert.equal(p.status.phase, 'Running');
    assert.equal(p.status.containerStatuses[0].ready, true);
    assert.match(p.status.containerStatuses[0].containerID, /^orch-sim:\/\/[0-9a-f]{64}$/);
  }
  const host = await until('the host-network pod running', async () => { const p = await client.get('/api/v1/namespaces/default/pods/host'); return p.status?.phase === 'Running' && p; }, 10_000);
  assert.deepEqual([host.status.podIP, host.status.hostIP], ['172.16.0.3', '172.16.0.3']);
  const failed = await until('the failing pod to end', async () => { const p = await client.get('/api/v1/namespaces/default/pods/fails'); return p.status?.phase === 'Failed' && p; }, 10_000);
  assert.equal(failed.status.containerStatuses[0].state.terminated.exitCode, 3);
  assert.equal(failed.status.containerStatuses[0].state.terminated.reason, 'Error');

  // a node that stops: Unknown after the grace period, tainted, its pods evicted and replaced
  const victim = pods[0].spec.nodeName;
  const onVictim = pods.filter((p: any) => p.spec.nodeName === victim).map((p: any) => p.metadata.name);
  pool.stopNode(victim);
  await until('the stopped node Unknown and tainted', async () => {
    const n = await client.get(`/api/v1/nodes/${victim}`);
    return condition(n, 'Ready')?.status === 'Unknown' && (n.spec.taints ?? []).some((x: any) => x.key === unreachable && x.effect === 'NoExecute');
  }, 15_000);
  for (const name of onVictim) {
    const evicted = await until(`${name} evicted`, async () => { const p = await client.get(`/api/v1/namespaces/default/pods/${name}`); return p.metadata.deletionTimestamp && p; }, 15_000);
    assert.ok(evicted.status.conditions.some((c: any) => c.type === 'DisruptionTarget' && c.reason === 'DeletionByTaintManager'));
  }
  await until('replacements running on the other nodes', async () => {
    const live = (await client.list('/api/v1/namespaces/default/pods', { labelSelector: 'app=web' })).items.filter((p: any) => !p.metadata.deletionTimestamp);
    return live.length === 3 && live.every((p: any) => p.spec.nodeName !== victim && p.status?.phase === 'Running');
  }, 20_000);
});
