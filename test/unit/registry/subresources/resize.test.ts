// pods/resize through the router and handlers: what a write may change, and the refusals in
// ValidatePodResize's words.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const pods = '/api/v1/namespaces/default/pods';
const strategic = { 'content-type': 'application/strategic-merge-patch+json' };
const resources = (cpu: string, mem: string, limCpu?: string, limMem?: string) => ({ requests: { cpu, memory: mem }, ...(limCpu ? { limits: { cpu: limCpu, memory: limMem } } : {}) });

async function create(name: string, res: unknown, extra: Record<string, unknown> = {}) {
  const r = await api.request('POST', pods, { body: { metadata: { name, ...extra }, spec: { containers: [{ name: 'c', image: 'busybox', resources: res }] } } });
  assert.equal(r.status, 201, r.text());
  return r.json();
}

test('a resize changes only the containers\' resources and resizePolicy, and bumps the generation', async () => {
  const created = await create('r1', resources('100m', '32Mi', '200m', '64Mi'));
  const got = await api.request('GET', `${pods}/r1/resize`);
  assert.equal(got.status, 200);
  assert.equal(got.json().kind, 'Pod');
  const patch = { spec: { containers: [{ name: 'c', image: 'ignored', resources: resources('150m', '48Mi', '300m', '96Mi'), resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] }], activeDeadlineSeconds: 5 }, metadata: { labels: { ignored: 'yes' } } };
  const r = await api.request('PATCH', `${pods}/r1/resize`, { body: patch, headers: strategic });
  assert.equal(r.status, 200, r.text());
  const pod = r.json();
  assert.deepEqual(pod.spec.containers[0].resources, resources('150m', '48Mi', '300m', '96Mi'));
  assert.deepEqual(pod.spec.containers[0].resizePolicy, [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }]);
  assert.equal(pod.spec.containers[0].image, 'busybox', 'other changes are dropped');
  assert.equal(pod.spec.activeDeadlineSeconds, undefined);
  assert.equal(pod.metadata.labels, undefined);
  assert.equal(pod.metadata.generation, created.metadata.generation + 1);
  // the main resource still refuses the same change
  const direct = await api.request('PATCH', `${pods}/r1`, { body: { spec: { containers: [{ name: 'c', resources: resources('1', '1Gi') }] } }, headers: strategic });
  assert.equal(direct.status, 422);
});

test('a resize is refused when it would change the QoS class, remove a limit or touch another resource', async () => {
  await create('r2', resources('100m', '32Mi', '100m', '32Mi'));
  const qos = await api.request('PATCH', `${pods}/r2/resize`, { body: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '50m' } } }] } }, headers: strategic });
  assert.equal(qos.status, 422, qos.text());
  assert.match(qos.json().message, /spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing/);

  await create('r3', resources('100m', '32Mi', '200m', '64Mi'));
  const removed = await api.request('PATCH', `${pods}/r3/resize`, { body: { spec: { containers: [{ name: 'c', resources: { limits: { memory: null } } }] } }, headers: strategic });
  assert.equal(removed.status, 422, removed.text());
  assert.match(removed.json().message, /spec\.containers\[0\]\.resources\.limits\[memory\]: Forbidden: resource limits cannot be removed/);
  const other = await api.request('PATCH', `${pods}/r3/resize`, { body: { spec: { containers: [{ name: 'c', resources: { requests: { 'ephemeral-storage': '1Gi' } } }] } }, headers: strategic });
  assert.equal(other.status, 422, other.text());
  assert.match(other.json().message, /spec: Forbidden: only cpu and memory resources are mutable/);
  const over = await api.request('PATCH', `${pods}/r3/resize`, { body: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m' } } }] } }, headers: strategic });
  assert.equal(over.status, 422);
  assert.match(over.json().message, /must be less than or equal to cpu limit of 200m/);

  await create('static', resources('100m', '32Mi', '200m', '64Mi'), { annotations: { 'kubernetes.io/config.mirror': 'x' } });
  const mirror = await api.request('PATCH', `${pods}/static/resize`, { body: { spec: { containers: [{ name: 'c', resources: resources('150m', '32Mi', '200m', '64Mi') }] } }, headers: strategic });
  assert.equal(mirror.status, 422);
  assert.match(mirror.json().message, /static pods cannot be resized/);
  assert.equal((await api.request('DELETE', `${pods}/r3/resize`)).status, 405);
});
