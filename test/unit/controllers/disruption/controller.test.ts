import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { eventually, startInProcessApi } from '../../support/in-process-api.ts';

const ns = '/api/v1/namespaces/default';
const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

async function readyPod(client: any, name: string, labels: Record<string, string>, owner?: { kind: string; name: string; uid: string }) {
  const p = await client.create(`${ns}/pods`, {
    metadata: { name, labels, ownerReferences: owner ? [{ apiVersion: 'apps/v1', ...owner, controller: true }] : undefined },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
  });
  p.status = { phase: 'Running', podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
  return client.update(`${ns}/pods/${name}/status`, p);
}

test('budget status from the pods and, for percentages, from their ReplicaSet\'s scale; a missing controller fails safe', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startControllers({ client, enabled: ['disruption'], log: silentLogger });
  t.after(() => ctl.stop());

  const rs = await client.create('/apis/apps/v1/namespaces/default/replicasets', {
    metadata: { name: 'web' },
    spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
  });
  for (const n of ['w1', 'w2', 'w3']) await readyPod(client, n, { app: 'web' }, { kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid });

  await client.create(pdbs, { metadata: { name: 'by-count' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } });
  await client.create(pdbs, { metadata: { name: 'by-percent' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } } });
  await client.create(pdbs, { metadata: { name: 'max' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } });

  const statusOf = (name: string, healthy?: number) => eventually(async () => {
    const b = await client.get(`${pdbs}/${name}`);
    // a sync may run before the informer holds the last pod's readiness: wait for what the test set up
    return b.status?.observedGeneration === b.metadata.generation && b.status.conditions?.length && (healthy === undefined || b.status.currentHealthy === healthy) ? b : undefined;
  }, `status of ${name}`);
  const figures = (b: any) => [b.status.currentHealthy, b.status.desiredHealthy, b.status.expectedPods, b.status.disruptionsAllowed, b.status.conditions[0].reason];
  assert.deepEqual(figures(await statusOf('by-count', 3)), [3, 2, 3, 1, 'SufficientPods']);
  assert.deepEqual(figures(await statusOf('by-percent', 3)), [3, 2, 4, 1, 'SufficientPods']);
  const max = await statusOf('max', 3);
  assert.deepEqual(figures(max), [3, 3, 4, 0, 'InsufficientPods']);
  assert.equal(max.status.conditions[0].status, 'False');

  // a pod stops being ready: the budgets follow
  const w1 = await client.get(`${ns}/pods/w1`);
  w1.status.conditions[0].status = 'False';
  await client.update(`${ns}/pods/w1/status`, w1);
  await eventually(async () => (await client.get(`${pdbs}/by-count`)).status.currentHealthy === 2, 'by-count sees two healthy');
  const byCount = await client.get(`${pdbs}/by-count`);
  assert.deepEqual(figures(byCount), [2, 2, 3, 0, 'InsufficientPods']);

  // a pod whose controller cannot be found: the sync fails safe, saying why
  await readyPod(client, 'lost', { app: 'lost' }, { kind: 'ReplicaSet', name: 'gone', uid: 'no-such-uid' });
  await client.create(pdbs, { metadata: { name: 'lost' }, spec: { maxUnavailable: '10%', selector: { matchLabels: { app: 'lost' } } } });
  const lost = await eventually(async () => (await client.get(`${pdbs}/lost`)).status?.conditions?.[0], 'lost condition');
  assert.deepEqual([lost.status, lost.reason, lost.message], ['False', 'SyncFailed', 'found no controllers for pod "lost"']);

  // a kind the finders do not know and that has no /scale (a Job): the same failure, as in Kubernetes
  const job = await client.create('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } });
  const p = await client.create(`${ns}/pods`, { metadata: { name: 'once-x', labels: { app: 'once' }, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'once', uid: job.metadata.uid, controller: true }] }, spec: { containers: [{ name: 'c', image: 'x' }] } });
  assert.ok(p.metadata.uid);
  await client.create(pdbs, { metadata: { name: 'once' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'once' } } } });
  const once = await eventually(async () => (await client.get(`${pdbs}/once`)).status?.conditions?.[0], 'once condition');
  assert.deepEqual([once.reason, once.message], ['SyncFailed', 'found no controllers for pod "once-x"']);

  // no pods at all: said in an event
  await client.create(pdbs, { metadata: { name: 'empty' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'none' } } } });
  assert.deepEqual(figures(await statusOf('empty')), [0, 1, 0, 0, 'InsufficientPods']);
  await eventually(async () => (await client.list(`${ns}/events`)).items.find((e: any) => e.involvedObject.name === 'empty' && e.reason === 'NoPods' && e.message === 'No matching pods found'), 'NoPods event');
});
