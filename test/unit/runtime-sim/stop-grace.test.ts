import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim } from './sim-fixture.ts';

test('SIGTERM ends a daemon the sim does not know at once with 143', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['/usr/sbin/some-daemon', '--foreground'] });
  const before = Date.now();
  await cri.stopContainer({ containerId, timeout: 30 });
  assert.ok(Date.now() - before < 1000, 'did not wait for the grace period');
  const s = (await cri.containerStatus({ containerId })).status;
  assert.deepEqual([s!.state, s!.exitCode, s!.reason], ['CONTAINER_EXITED', 143, 'Error']);
});

test('a shell or sleep as PID 1 with no TERM trap ignores SIGTERM, as on containerd, and is killed with 137 at the end of the grace period', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const loop = await runContainer(pod, { metadata: { name: 'loop' }, command: ['sh', '-c', 'while true; do sleep 1; done'] });
  const sleeper = await runContainer(pod, { metadata: { name: 'sleeper' }, command: ['sleep', '3600'] });
  for (const containerId of [loop, sleeper]) {
    const before = Date.now();
    await cri.stopContainer({ containerId, timeout: 1 });
    const waited = Date.now() - before;
    assert.ok(waited >= 950 && waited < 3000, `waited the grace period: ${waited} ms`);
    const s = (await cri.containerStatus({ containerId })).status;
    assert.deepEqual([s!.state, s!.exitCode, s!.reason], ['CONTAINER_EXITED', 137, 'Error']);
  }
});

test('a container ignoring SIGTERM is killed with 137 once the grace period is over', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const trapped = await runContainer(pod, { metadata: { name: 'trapped' }, command: ['sh', '-c', "trap '' TERM; sleep 3600"] });
  const annotated = await runContainer(pod, { metadata: { name: 'annotated' }, command: ['sleep', '3600'], annotations: { 'runtime-sim.orch.io/ignore-sigterm': 'true' } });
  for (const containerId of [trapped, annotated]) {
    const before = Date.now();
    await cri.stopContainer({ containerId, timeout: 1 });
    const waited = Date.now() - before;
    assert.ok(waited >= 950 && waited < 3000, `waited the grace period: ${waited} ms`);
    const s = (await cri.containerStatus({ containerId })).status;
    assert.deepEqual([s!.state, s!.exitCode, s!.reason], ['CONTAINER_EXITED', 137, 'Error']);
  }
});

test('no grace period kills at once; a TERM handler decides the exit code', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const trapped = await runContainer(pod, { metadata: { name: 'trapped' }, command: ['sh', '-c', "trap '' TERM; sleep 3600"] });
  const before = Date.now();
  await cri.stopContainer({ containerId: trapped, timeout: 0 });
  assert.ok(Date.now() - before < 500);
  assert.equal((await cri.containerStatus({ containerId: trapped })).status!.exitCode, 137);

  const handler = await runContainer(pod, { metadata: { name: 'handler' }, command: ['sh', '-c', "trap 'echo bye; exit 0' TERM; sleep 3600"] });
  await cri.stopContainer({ containerId: handler, timeout: 10 });
  const s = (await cri.containerStatus({ containerId: handler })).status;
  assert.deepEqual([s!.exitCode, s!.reason], [0, 'Completed']);

  // stopping what is not running changes nothing
  const created = await runContainer(pod, { metadata: { name: 'created' } }, false);
  await cri.stopContainer({ containerId: created, timeout: 1 });
  assert.equal((await cri.containerStatus({ containerId: created })).status!.state, 'CONTAINER_CREATED');
  await cri.stopContainer({ containerId: handler, timeout: 1 });
  assert.equal((await cri.containerStatus({ containerId: handler })).status!.exitCode, 0);
});

test('a container\'s stop signal SIGINT reaches its INT trap in place of SIGTERM; unhandled by PID 1 it does nothing until the kill at the grace period; the status names it', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const handler = await runContainer(pod, { metadata: { name: 'int' }, stopSignal: 'SIGNAL_SIGINT', command: ['sh', '-c', "trap 'exit 0' TERM; trap 'exit 42' INT; sleep 3600"] });
  await cri.stopContainer({ containerId: handler, timeout: 10 });
  const s = (await cri.containerStatus({ containerId: handler })).status!;
  assert.deepEqual([s.exitCode, s.stopSignal], [42, 'SIGNAL_SIGINT']);
  const plain = await runContainer(pod, { metadata: { name: 'plain' }, stopSignal: 'SIGNAL_SIGINT', command: ['sleep', '3600'] });
  await cri.stopContainer({ containerId: plain, timeout: 1 });
  assert.equal((await cri.containerStatus({ containerId: plain })).status!.exitCode, 137);
});
