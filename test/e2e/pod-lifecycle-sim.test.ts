// The container lifecycle on a simulated node, as on containerd (pod-lifecycle-containerd): an
// in-place resize applied without a restart (or with one where resizePolicy asks), a resize the
// node cannot hold pending as Infeasible, OOMKilled over a memory limit, and a stop signal
// reaching the container.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';

test('container lifecycle on a simulated node: resize, infeasible resize, OOMKilled, stop signal', async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [image] });
  t.after(() => pool.stop());
  const c = rawClient(orch.kubeconfig);
  const node = pool.names[0]!;
  await until('the node Ready', async () => (await c.request('GET', `/api/v1/nodes/${node}`)).json().status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True'));
  const create = (body: unknown) => c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const get = async (name: string) => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json();

  await t.test('in-place resize: updated without a restart, or restarted where resizePolicy asks', async () => {
    const res = { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } };
    const loop = ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];
    assert.equal((await create({ metadata: { name: 'resizable' }, spec: { nodeName: node, containers: [
      { name: 'main', image, command: loop, resources: res },
      { name: 'restarts', image, command: loop, resources: res, resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
    ] } })).status, 201);
    await until('resizable Running', async () => (await get('resizable')).status?.containerStatuses?.every((x: any) => x.state.running));
    const resized = { requests: { cpu: '150m', memory: '48Mi' }, limits: { cpu: '300m', memory: '96Mi' } };
    const r = await c.request('PATCH', '/api/v1/namespaces/default/pods/resizable/resize', { body: JSON.stringify({ spec: { containers: [{ name: 'main', resources: resized }, { name: 'restarts', resources: resized }] } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    assert.equal(r.status, 200, r.body);
    const after = await until('the resize applied', async () => {
      const p = await get('resizable');
      const byName = (n: string) => p.status?.containerStatuses?.find((x: any) => x.name === n);
      return byName('main')?.resources?.limits?.cpu === '300m' && byName('restarts')?.restartCount === 1 && byName('restarts').state.running && p;
    }, 20_000);
    const main = after.status.containerStatuses.find((x: any) => x.name === 'main');
    assert.equal(main.restartCount, 0);
    assert.deepEqual(main.resources, resized);
  });

  await t.test('a resize the node can never hold stays pending as Infeasible; the container keeps what it had', async () => {
    const huge = { requests: { cpu: '64', memory: '32Mi' }, limits: { cpu: '128', memory: '64Mi' } };
    const r = await c.request('PATCH', '/api/v1/namespaces/default/pods/resizable/resize', { body: JSON.stringify({ spec: { containers: [{ name: 'main', resources: huge }] } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    assert.equal(r.status, 200, r.body);
    const pending = await until('PodResizePending', async () => { const p = await get('resizable'); return p.status?.conditions?.find((x: any) => x.type === 'PodResizePending'); }, 20_000);
    assert.equal(pending.reason, 'Infeasible');
    assert.match(pending.message, /^Node didn't have enough capacity: cpu, requested: 64150, capacity: \d+$/);
    const main = (await get('resizable')).status.containerStatuses.find((x: any) => x.name === 'main');
    assert.deepEqual([main.resources.limits.cpu, main.allocatedResources.cpu, main.restartCount], ['300m', '150m', 0]);
  });

  await t.test('a container over its memory limit is OOMKilled (137), as on containerd', async () => {
    // the sim's containers use what the memory-bytes annotation says
    assert.equal((await create({ metadata: { name: 'oom', annotations: { 'runtime-sim.orch.io/memory-bytes': String(100 << 20) } }, spec: { nodeName: node, restartPolicy: 'Never', containers: [
      { name: 'main', image, command: ['sh', '-c', 'while true; do sleep 1; done'], resources: { limits: { memory: '24Mi' } } },
    ] } })).status, 201);
    const failed = await until('oom Failed', async () => { const p = await get('oom'); return p.status?.phase === 'Failed' && p; });
    const term = failed.status.containerStatuses[0].state.terminated;
    assert.deepEqual([term.reason, term.exitCode], ['OOMKilled', 137]);
  });

  await t.test('a stop signal of SIGINT reaches the container on delete, and the status names it', async () => {
    // the runtime-sim reports the signal back; containerd 1.6 ignores the field (it reports its default)
    assert.equal((await create({ metadata: { name: 'int' }, spec: { nodeName: node, os: { name: 'linux' }, terminationGracePeriodSeconds: 30, containers: [
      { name: 'main', image, command: ['sh', '-c', "trap '' TERM; trap 'exit 0' INT; while true; do sleep 1; done"], lifecycle: { stopSignal: 'SIGINT' } },
    ] } })).status, 201);
    const running = await until('int Running', async () => { const p = await get('int'); return p.status?.phase === 'Running' && p; });
    assert.equal(running.status.containerStatuses[0].stopSignal, 'SIGINT');
    const started = Date.now();
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/int')).status, 200);
    await until('int gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/int')).status === 404, 20_000);
    // SIGTERM is ignored here: only SIGINT ends it before the kill at 30 s
    assert.ok(Date.now() - started < 10_000, 'the INT trap ended it, not the kill at 30 s');
  });
});
