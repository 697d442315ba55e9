import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, waitFor } from './sim-fixture.ts';

const ids = (items: Array<{ id: string }>) => items.map(i => i.id).sort();

test('ListPodSandbox filters by id (or its unique prefix), state and labels', async t => {
  const { cri, runPod } = await startSim(t);
  const a = await runPod('a', { labels: { app: 'web', tier: 'front' } });
  const b = await runPod('b', { labels: { app: 'web' } });
  const c = await runPod('c', { labels: { app: 'db' } });
  await cri.stopPodSandbox({ podSandboxId: c.podSandboxId });

  const list = async (filter?: object) => (await cri.listPodSandbox(filter ? { filter } : {})).items;
  assert.deepEqual(ids(await list()), ids([a, b, c].map(p => ({ id: p.podSandboxId }))));
  assert.deepEqual(ids(await list({ id: b.podSandboxId })), [b.podSandboxId]);
  assert.deepEqual(ids(await list({ id: b.podSandboxId.slice(0, 12) })), [b.podSandboxId]);
  assert.deepEqual(await list({ id: 'nope' }), []);
  assert.deepEqual(ids(await list({ state: { state: 'SANDBOX_NOTREADY' } })), [c.podSandboxId]);
  assert.deepEqual(ids(await list({ state: { state: 'SANDBOX_READY' } })), ids([a, b].map(p => ({ id: p.podSandboxId }))));
  assert.deepEqual(ids(await list({ labelSelector: { app: 'web' } })), ids([a, b].map(p => ({ id: p.podSandboxId }))));
  assert.deepEqual(ids(await list({ labelSelector: { app: 'web', tier: 'front' } })), [a.podSandboxId]);
  assert.deepEqual(ids(await list({ labelSelector: { app: 'web' }, state: { state: 'SANDBOX_NOTREADY' } })), []);
  const item = (await list({ id: a.podSandboxId }))[0];
  assert.deepEqual(item.labels, { app: 'web', tier: 'front' });
  assert.equal(item.state, 'SANDBOX_READY');
  assert.ok(item.createdAt > 0);
});

test('ListContainers filters by id, state, pod sandbox id (or their prefixes) and labels', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const p1 = await runPod('p1');
  const p2 = await runPod('p2');
  const running = await runContainer(p1, { metadata: { name: 'run' }, command: ['sleep', '3600'], labels: { role: 'main' } });
  const created = await runContainer(p1, { metadata: { name: 'new' }, labels: { role: 'side' } }, false);
  const done = await runContainer(p2, { metadata: { name: 'done' }, command: ['true'], labels: { role: 'main' } });
  await waitFor(async () => (await cri.containerStatus({ containerId: done })).status!.state, s => s === 'CONTAINER_EXITED');

  const list = async (filter?: object) => (await cri.listContainers(filter ? { filter } : {})).containers;
  assert.deepEqual(ids(await list()), [running, created, done].sort());
  assert.deepEqual(ids(await list({ id: created.slice(0, 8) })), [created]);
  assert.deepEqual(ids(await list({ podSandboxId: p1.podSandboxId })), [running, created].sort());
  assert.deepEqual(ids(await list({ podSandboxId: p2.podSandboxId.slice(0, 8) })), [done]);
  assert.deepEqual(ids(await list({ state: { state: 'CONTAINER_RUNNING' } })), [running]);
  assert.deepEqual(ids(await list({ state: { state: 'CONTAINER_CREATED' } })), [created]);
  assert.deepEqual(ids(await list({ state: { state: 'CONTAINER_EXITED' } })), [done]);
  assert.deepEqual(ids(await list({ labelSelector: { role: 'main' } })), [running, done].sort());
  assert.deepEqual(ids(await list({ labelSelector: { role: 'main' }, podSandboxId: p1.podSandboxId })), [running]);
  const item = (await list({ id: running }))[0];
  assert.equal(item.podSandboxId, p1.podSandboxId);
  assert.deepEqual(item.metadata, { name: 'run', attempt: 0 });
  assert.match(item.imageRef, /^sha256:[0-9a-f]{64}$/);
  assert.equal(item.image!.image, 'docker.io/library/busybox:latest');
});
