import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, exited, startSim } from './sim-fixture.ts';

test('a container goes from CREATED through RUNNING to EXITED, with its times', async t => {
  const { cri, runPod, runContainer } = await startSim(t, { startDelayMs: 150 });
  const pod = await runPod('p1');
  const sandbox = (await cri.podSandboxStatus({ podSandboxId: pod.podSandboxId })).status;
  assert.equal(sandbox!.state, 'SANDBOX_READY');
  assert.match(sandbox!.id, /^[0-9a-f]{64}$/);
  assert.deepEqual(sandbox!.metadata, pod.sandboxConfig.metadata);

  const containerId = await runContainer(pod, { metadata: { name: 'c1' }, command: ['sleep', '0.3'], labels: { tier: 'web' }, annotations: { note: 'x' } }, false);
  const created = (await cri.containerStatus({ containerId })).status;
  assert.equal(created!.state, 'CONTAINER_CREATED');
  assert.equal(created!.startedAt, 0);
  assert.deepEqual(created!.labels, { tier: 'web' });
  assert.deepEqual(created!.annotations, { note: 'x' });
  assert.equal(created!.image!.image, 'docker.io/library/busybox:latest');
  assert.match(created!.imageRef, /^docker\.io\/library\/busybox@sha256:[0-9a-f]{64}$/);
  assert.match(created!.imageId, /^sha256:[0-9a-f]{64}$/);

  const before = Date.now();
  await cri.startContainer({ containerId });
  assert.ok(Date.now() - before >= 140, 'StartContainer takes the start delay');
  const running = (await cri.containerStatus({ containerId })).status;
  assert.equal(running!.state, 'CONTAINER_RUNNING');
  assert.ok(running!.startedAt >= created!.createdAt);
  await assert.rejects(cri.startContainer({ containerId }), criError('UNKNOWN', /container is in CONTAINER_RUNNING state/));

  const done = await exited(cri, containerId);
  assert.equal(done.exitCode, 0);
  assert.equal(done.reason, 'Completed');
  assert.ok(done.finishedAt - done.startedAt >= 250e6, `ran for its sleep: ${(done.finishedAt - done.startedAt) / 1e6} ms`);

  await cri.removeContainer({ containerId });
  await cri.removeContainer({ containerId });
  assert.deepEqual((await cri.listContainers({})).containers, []);
});

test('stopping a sandbox kills its containers; removing it removes them; both are idempotent', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p1');
  const a = await runContainer(pod, { metadata: { name: 'a' }, command: ['sleep', '3600'] });
  const b = await runContainer(pod, { metadata: { name: 'b' } });
  const other = await runPod('p2');
  const c = await runContainer(other, { metadata: { name: 'c' }, command: ['sleep', '3600'] });

  await cri.stopPodSandbox({ podSandboxId: pod.podSandboxId });
  await cri.stopPodSandbox({ podSandboxId: pod.podSandboxId });
  assert.equal((await cri.podSandboxStatus({ podSandboxId: pod.podSandboxId })).status!.state, 'SANDBOX_NOTREADY');
  for (const id of [a, b]) {
    const s = (await cri.containerStatus({ containerId: id })).status;
    assert.deepEqual([s!.state, s!.exitCode, s!.reason], ['CONTAINER_EXITED', 137, 'Error']);
  }
  assert.equal((await cri.containerStatus({ containerId: c })).status!.state, 'CONTAINER_RUNNING', 'the other pod is untouched');
  await assert.rejects(runContainer(pod, { metadata: { name: 'late' } }), criError('UNKNOWN', /is not running/));

  await cri.removePodSandbox({ podSandboxId: pod.podSandboxId });
  await cri.removePodSandbox({ podSandboxId: pod.podSandboxId });
  assert.deepEqual((await cri.listContainers({})).containers.map((x: any) => x.id), [c]);
  assert.deepEqual((await cri.listPodSandbox({})).items.map((x: any) => x.id), [other.podSandboxId]);

  // removing a ready sandbox stops it first
  await cri.removePodSandbox({ podSandboxId: other.podSandboxId });
  assert.deepEqual((await cri.listContainers({})).containers, []);
});

test('sandbox and container names are reserved until removal, as containerd reserves them', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p1');
  await assert.rejects(runPod('p1'), criError('UNKNOWN', /failed to reserve sandbox name "p1_default_uid-p1_0": name "p1_default_uid-p1_0" is reserved for "[0-9a-f]{64}"/));
  const first = await runContainer(pod, { metadata: { name: 'c1' } });
  await assert.rejects(runContainer(pod, { metadata: { name: 'c1' } }), criError('UNKNOWN', /failed to reserve container name "c1_p1_default_uid-p1_0"/));
  await cri.removeContainer({ containerId: first });
  await runContainer(pod, { metadata: { name: 'c1' } });
  await cri.removePodSandbox({ podSandboxId: pod.podSandboxId });
  await runPod('p1');
});
