// Pod behaviour on one simulated node: image pull failures as ErrImagePull then
// ImagePullBackOff, a pull policy of Never for a missing image, and a failing liveness probe
// restarting its container.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const present = 'registry.local/app:1.0';
const create = (c: RawClient, name: string, container: Record<string, unknown>) =>
  c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify({ metadata: { name }, spec: { containers: [{ name: 'main', command: ['sh', '-c', 'while true; do sleep 1; done'], ...container }] } }), headers: { 'content-type': 'application/json' } });
const waiting = async (c: RawClient, name: string) => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).json().status?.containerStatuses?.[0];

test('image pulls, pull policy and liveness on a simulated node', async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [present], unpullableImages: ['registry.local/missing:1.0'] });
  t.after(() => pool.stop());
  const c = rawClient(orch.kubeconfig);
  await until('the node Ready', async () => (await c.request('GET', `/api/v1/nodes/${pool.names[0]}`)).json().status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True'));

  await t.test('an image that cannot be pulled: ErrImagePull, then ImagePullBackOff', async () => {
    assert.equal((await create(c, 'nopull', { image: 'registry.local/missing:1.0' })).status, 201);
    const first = await until('ErrImagePull', async () => { const s = await waiting(c, 'nopull'); return s?.state?.waiting?.reason === 'ErrImagePull' && s; });
    // the runtime's error as Go's gRPC prints it, as the kubelet reports it
    assert.match(first.state.waiting.message, /^rpc error: code = Unknown desc = failed to pull and unpack image "registry\.local\/missing:1\.0": /);
    const later = await until('ImagePullBackOff', async () => { const s = await waiting(c, 'nopull'); return s?.state?.waiting?.reason === 'ImagePullBackOff' && s; }, 20_000);
    assert.equal(later.state.waiting.message, `Back-off pulling image "registry.local/missing:1.0": ErrImagePull: ${first.state.waiting.message}`);
    const events = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=nopull')).json().items.map((e: any) => e.reason);
    for (const r of ['Scheduled', 'Pulling', 'Failed']) assert.ok(events.includes(r), `${r} in ${events}`);
  });

  await t.test('pull policy Never with the image absent: ErrImageNeverPull', async () => {
    assert.equal((await create(c, 'never', { image: 'registry.local/absent:2.0', imagePullPolicy: 'Never' })).status, 201);
    const s = await until('ErrImageNeverPull', async () => { const s = await waiting(c, 'never'); return s?.state?.waiting?.reason === 'ErrImageNeverPull' && s; });
    assert.equal(s.state.waiting.message, 'Container image "registry.local/absent:2.0" is not present with pull policy of Never');
  });

  await t.test('pods/log: Kubernetes answers for an unplaced pod, a missing container name, a bad option', async () => {
    const two = { metadata: { name: 'two' }, spec: { containers: [{ name: 'a', image: present, imagePullPolicy: 'IfNotPresent' }, { name: 'b', image: present, imagePullPolicy: 'IfNotPresent' }], initContainers: [{ name: 'i', image: present, imagePullPolicy: 'IfNotPresent', command: ['true'] }] } };
    const unplaced = { metadata: { name: 'unplaced' }, spec: { schedulerName: 'nobody', containers: [{ name: 'a', image: present }] } };
    for (const body of [two, unplaced]) await c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const log = (path: string) => c.request('GET', `/api/v1/namespaces/default/pods/${path}`);
    const noName = await log('two/log');
    assert.equal(noName.status, 400);
    assert.equal(noName.json().message, 'a container name must be specified for pod two, choose one of: [i a b]');
    assert.equal((await log('two/log?container=zzz')).json().message, 'container zzz is not valid for pod two');
    const unplacedLog = await log('unplaced/log');
    assert.equal(unplacedLog.status, 204, 'no node, no log: kube-apiserver answers No Content');
    const negative = await log('two/log?container=a&tailLines=-2');
    assert.equal(negative.status, 422);
    assert.equal(negative.json().message, 'PodLogOptions "two" is invalid: tailLines: Invalid value: -2: must be greater than or equal to 0');
    assert.equal((await log('missing/log')).status, 404);
    await until('two runs', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/two')).json().status?.phase === 'Running');
    const ok = await log('two/log?container=a');
    assert.equal(ok.status, 200, ok.body);
    assert.match(String(ok.headers['content-type']), /^text\/plain/);
  });

  await t.test('a failing liveness probe restarts the container', async () => {
    // (a TERM trap: the shell as PID 1 would otherwise wait out the 30 s grace period, as on containerd)
    assert.equal((await create(c, 'unhealthy', { image: present, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'], livenessProbe: { exec: { command: ['false'] }, periodSeconds: 1, failureThreshold: 2 } })).status, 201);
    const restarted = await until('a restart', async () => { const s = await waiting(c, 'unhealthy'); return s?.restartCount >= 1 && s; });
    assert.ok(restarted.lastState.terminated, JSON.stringify(restarted));
    const events = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=unhealthy')).json().items;
    assert.ok(events.some((e: any) => e.reason === 'Unhealthy' && e.message.startsWith('Liveness probe failed')), 'Unhealthy event');
    assert.ok(events.some((e: any) => e.reason === 'Killing' && e.message === 'Container main failed liveness probe, will be restarted'), 'Killing event');
  });
});
