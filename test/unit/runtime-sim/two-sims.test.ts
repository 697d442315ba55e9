import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim } from './sim-fixture.ts';

test('two sims in one process keep their own sandboxes, containers, images and IPs', async t => {
  const one = await startSim(t, { podSubnet: '10.1.0.0/24', startDelayMs: 0 });
  const two = await startSim(t, { podSubnet: '10.2.0.0/24', preloadedImages: ['nginx'] });
  const a = await one.runPod('same-name');
  const b = await two.runPod('same-name');
  assert.equal((await one.cri.podSandboxStatus({ podSandboxId: a.podSandboxId })).status!.network!.ip, '10.1.0.2');
  assert.equal((await two.cri.podSandboxStatus({ podSandboxId: b.podSandboxId })).status!.network!.ip, '10.2.0.2');
  const c = await one.runContainer(a, { command: ['sleep', '3600'] });
  await two.runContainer(b, { image: { image: 'nginx' }, command: ['sleep', '3600'] });

  assert.deepEqual((await one.cri.listPodSandbox({})).items.map((i: any) => i.id), [a.podSandboxId]);
  assert.equal((await two.cri.imageStatus({ image: { image: 'busybox' } })).image, null);
  assert.ok((await one.cri.imageStatus({ image: { image: 'busybox' } })).image);

  await one.sim.stop();
  const left = (await two.cri.listContainers({})).containers;
  assert.equal(left.length, 1);
  assert.equal(left[0].state, 'CONTAINER_RUNNING', 'stopping one sim leaves the other running');
  assert.notEqual(left[0].id, c);
});
