// pods/ephemeralcontainers through the router and handlers: only spec.ephemeralContainers
// changes, added ones are defaulted, existing ones are fixed, and the refusals are worded as
// kube-apiserver words them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const pods = '/api/v1/namespaces/default/pods';
const strategic = { 'content-type': 'application/strategic-merge-patch+json' };
const dbg = (name: string, extra: Record<string, unknown> = {}) => ({ name, image: 'busybox:1.36', command: ['sleep', '3600'], ...extra });

async function create(name: string, extra: Record<string, unknown> = {}) {
  const r = await api.request('POST', pods, { body: { metadata: { name, ...extra }, spec: { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(r.status, 201, r.text());
  return r.json();
}

const add = (name: string, containers: unknown[]) => api.request('PATCH', `${pods}/${name}/ephemeralcontainers`, { body: { spec: { ephemeralContainers: containers } }, headers: strategic });

test('a patch adds an ephemeral container, defaulted, and nothing else of the body counts', async () => {
  const created = await create('e1');
  const got = await api.request('GET', `${pods}/e1/ephemeralcontainers`);
  assert.equal(got.status, 200);
  assert.equal(got.json().kind, 'Pod');
  const r = await api.request('PATCH', `${pods}/e1/ephemeralcontainers`, {
    body: { metadata: { labels: { ignored: 'yes' } }, spec: { activeDeadlineSeconds: 5, ephemeralContainers: [dbg('dbg', { targetContainerName: 'c', stdin: true, tty: true })] } },
    headers: strategic,
  });
  assert.equal(r.status, 200, r.text());
  const pod = r.json();
  assert.deepEqual(pod.spec.ephemeralContainers, [{ ...dbg('dbg', { targetContainerName: 'c', stdin: true, tty: true }), resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }]);
  assert.equal(pod.metadata.labels, undefined);
  assert.equal(pod.spec.activeDeadlineSeconds, undefined);
  assert.equal(pod.metadata.generation, created.metadata.generation + 1);
  // a second one joins the first (a merge by name); the first is untouched
  const second = await add('e1', [dbg('dbg2')]);
  assert.equal(second.status, 200, second.text());
  assert.deepEqual(second.json().spec.ephemeralContainers.map((c: { name: string }) => c.name).sort(), ['dbg', 'dbg2']);
});

test('existing ephemeral containers may not be changed or removed', async () => {
  await create('e2');
  assert.equal((await add('e2', [dbg('dbg')])).status, 200);
  const changed = await add('e2', [dbg('dbg', { image: 'busybox:1.37' })]);
  assert.equal(changed.status, 422, changed.text());
  assert.match(changed.json().message, /^Pod "e2" is invalid: spec\.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed\n/);
  const cur = (await api.request('GET', `${pods}/e2/ephemeralcontainers`)).json();
  cur.spec.ephemeralContainers = [];
  const removed = await api.request('PUT', `${pods}/e2/ephemeralcontainers`, { body: cur });
  assert.equal(removed.status, 422, removed.text());
  assert.match(removed.json().message, /spec\.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed/);
});

test('an ephemeral container may not have ports, probes, lifecycle or resources, a duplicate name or an unknown target', async () => {
  await create('e3');
  const bad = await add('e3', [dbg('c', {
    ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } }, readinessProbe: { exec: { command: ['true'] } }, lifecycle: { preStop: { exec: { command: ['true'] } } },
    targetContainerName: 'nope', volumeMounts: [{ name: 'v', mountPath: '/v', subPath: 'x' }],
  })]);
  assert.equal(bad.status, 422, bad.text());
  const msg = bad.json().message as string;
  for (const want of [
    'spec.ephemeralContainers[0].name: Duplicate value: "c"',
    'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
    'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
    'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
  ]) assert.ok(msg.includes(want), `${want} in ${msg}`);
  // an init container is a valid target; another ephemeral container is not
  assert.equal((await add('e3', [dbg('d1', { targetContainerName: 'init' })])).status, 200);
  const onEphemeral = await add('e3', [dbg('d2', { targetContainerName: 'd1' })]);
  assert.equal(onEphemeral.status, 422);
  assert.match(onEphemeral.json().message, /targetContainerName: Not found: "d1"/);
  const noImage = await add('e3', [{ name: 'd3' }]);
  assert.match(noImage.json().message, /spec\.ephemeralContainers\[\d\]\.image: Required value/);
});

test('pods are created without ephemeral containers and plain updates cannot change them', async () => {
  const r = await api.request('POST', pods, { body: { metadata: { name: 'e4' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ephemeralContainers: [dbg('dbg')] } } });
  assert.equal(r.status, 422);
  assert.match(r.json().message, /spec\.ephemeralContainers: Forbidden: cannot be set on create/);
  await create('e5');
  const direct = await api.request('PATCH', `${pods}/e5`, { body: { spec: { ephemeralContainers: [dbg('dbg')] } }, headers: strategic });
  assert.equal(direct.status, 422);
  assert.match(direct.json().message, /spec: Forbidden: pod updates may not change fields other than/);
  await create('static', { annotations: { 'kubernetes.io/config.mirror': 'x' } });
  const mirror = await add('static', [dbg('dbg')]);
  assert.equal(mirror.status, 422);
  assert.equal(mirror.json().message, 'Pod "static" is invalid: []: Forbidden: static pods do not support ephemeral containers');
  assert.equal((await api.request('DELETE', `${pods}/e5/ephemeralcontainers`)).status, 405);
});
