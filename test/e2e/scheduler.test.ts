// The scheduler against a real `orch server`: Ready nodes made through the API, pods placed by
// selector, taints and resources; an unschedulable pod explained as Kubernetes explains it
// and placed once a node fits; other schedulers' pods left alone; `orch scheduler` apart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, startOrch } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const send = (c: RawClient, method: string, path: string, body: unknown, type = 'application/json') => c.request(method, path, { body: JSON.stringify(body), headers: { 'content-type': type } });

async function makeNode(c: RawClient, name: string, o: { labels?: Record<string, string>; taints?: unknown[]; cpu?: string; memory?: string; ready?: boolean } = {}): Promise<void> {
  const r = await send(c, 'POST', '/api/v1/nodes', { metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } }, spec: { taints: o.taints } });
  assert.equal(r.status, 201, r.body);
  const status = { capacity: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: '110' }, allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: '110' }, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', reason: 'KubeletReady', message: 'ready', lastHeartbeatTime: new Date().toISOString(), lastTransitionTime: new Date().toISOString() }] };
  const s = await send(c, 'PATCH', `/api/v1/nodes/${name}/status`, { status }, 'application/merge-patch+json');
  assert.equal(s.status, 200, s.body);
}

const makePod = (c: RawClient, name: string, spec: Record<string, unknown> = {}, cpu = '100m') =>
  send(c, 'POST', '/api/v1/namespaces/default/pods', { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox:1.36', resources: { requests: { cpu } } }], ...spec } });
const getPod = async (c: RawClient, name: string) => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json();
const nodeOf = (c: RawClient, name: string) => until(`${name} bound`, async () => (await getPod(c, name)).spec?.nodeName);

test('the in-process scheduler places pods by selector, taints and resources, and explains failures', async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  await makeNode(c, 'small', { cpu: '1', labels: { disk: 'hdd' } });
  await makeNode(c, 'gpu', { cpu: '8', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
  await makeNode(c, 'down', { cpu: '8', ready: false });

  assert.equal((await makePod(c, 'plain')).status, 201);
  assert.equal(await nodeOf(c, 'plain'), 'small');
  const events = await until('a Scheduled event', async () => {
    const list = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=plain')).json();
    return list.items.find((e: any) => e.reason === 'Scheduled');
  });
  assert.equal(events.message, 'Successfully assigned default/plain to small');
  assert.equal(events.source.component, 'default-scheduler');

  await makePod(c, 'tolerant', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }], nodeSelector: { 'kubernetes.io/hostname': 'gpu' } });
  assert.equal(await nodeOf(c, 'tolerant'), 'gpu');

  // too big for "small", untolerated on the others
  assert.equal((await makePod(c, 'big', {}, '2')).status, 201);
  const failed = await until('FailedScheduling', async () => {
    const list = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=big')).json();
    return list.items.find((e: any) => e.reason === 'FailedScheduling');
  });
  assert.equal(failed.type, 'Warning');
  assert.equal(failed.message, '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.');
  const cond = await until('PodScheduled=False', async () => (await getPod(c, 'big')).status?.conditions?.find((x: any) => x.type === 'PodScheduled' && x.status === 'False'));
  assert.equal(cond.reason, 'Unschedulable');
  assert.equal(cond.message, failed.message);
  // a node that fits appears: the pod is placed without waiting for the periodic retry
  await makeNode(c, 'roomy', { cpu: '16' });
  assert.equal(await nodeOf(c, 'big'), 'roomy');

  await makePod(c, 'other', { schedulerName: 'my-scheduler' });
  await new Promise(r => setTimeout(r, 1000));
  assert.equal((await getPod(c, 'other')).spec.nodeName, undefined);

  // many at once: spread, none overcommitted
  const started = Date.now();
  await Promise.all(Array.from({ length: 100 }, (_, i) => makePod(c, `many-${i}`, {}, '50m')));
  await until('all bound', async () => {
    const list = (await c.request('GET', '/api/v1/namespaces/default/pods?labelSelector=')).json();
    return list.items.filter((p: any) => p.metadata.name.startsWith('many-') && p.spec.nodeName).length === 100;
  }, 60_000);
  console.log(`# 100 pods bound in ${Date.now() - started} ms`);
  const list = (await c.request('GET', '/api/v1/namespaces/default/pods')).json();
  const perNode = new Map<string, number>();
  for (const p of list.items) if (p.spec.nodeName) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + Number.parseInt(p.spec.containers[0].resources.requests.cpu) * (p.spec.containers[0].resources.requests.cpu.endsWith('m') ? 1 : 1000));
  assert.ok((perNode.get('small') ?? 0) <= 1000, `small holds ${perNode.get('small')}m of 1000m`);
  assert.ok(!perNode.has('down'));
});

test('`orch scheduler` as its own process binds pods when the server runs none', async t => {
  const orch = await startOrch({ args: ['--disable-scheduler'] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  await makeNode(c, 'n1');
  await makePod(c, 'waiting');
  await new Promise(r => setTimeout(r, 500));
  assert.equal((await getPod(c, 'waiting')).spec.nodeName, undefined, 'no scheduler in the server');
  const child = spawn(join(repoRoot, 'bin/orch'), ['scheduler', '--kubeconfig', orch.kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => { child.kill('SIGTERM'); });
  assert.equal(await nodeOf(c, 'waiting'), 'n1');
});
