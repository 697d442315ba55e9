import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim } from './sim-fixture.ts';

const uses = (bytes: number) => ({ 'runtime-sim.orch.io/memory-bytes': String(bytes) });
const loop = ['sh', '-c', 'while true; do sleep 1; done'];

test('a container using more than its memory limit is OOM-killed as containerd reports it: 137, OOMKilled', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const over = await runContainer(pod, { metadata: { name: 'over' }, command: loop, annotations: uses(64 << 20), linux: { resources: { memoryLimitInBytes: 32 << 20 } } });
  const under = await runContainer(pod, { metadata: { name: 'under' }, command: loop, annotations: uses(16 << 20), linux: { resources: { memoryLimitInBytes: 32 << 20 } } });
  const status = async (id: string) => (await cri.containerStatus({ containerId: id })).status!;
  const killed = await (async () => { for (let i = 0; i < 50; i++) { const s = await status(over); if (s.state === 'CONTAINER_EXITED') return s; await new Promise(r => setTimeout(r, 20)); } return status(over); })();
  assert.deepEqual([killed.state, killed.exitCode, killed.reason], ['CONTAINER_EXITED', 137, 'OOMKilled']);
  assert.equal((await status(under)).state, 'CONTAINER_RUNNING');
  // a resize that lowers the limit under what it uses kills it too
  await cri.updateContainerResources({ containerId: under, linux: { memoryLimitInBytes: 8 << 20 } });
  await new Promise(r => setTimeout(r, 100));
  const after = await status(under);
  assert.deepEqual([after.exitCode, after.reason], [137, 'OOMKilled']);
});
