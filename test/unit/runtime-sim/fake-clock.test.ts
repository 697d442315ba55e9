import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeClock } from '../agent/fake-clock.ts';
import { startSim, waitFor } from './sim-fixture.ts';

test('on an injected clock a sleep lasts exactly as long as the clock says', async t => {
  const clock = fakeClock();
  const { cri, runPod, runContainer } = await startSim(t, { clock });
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sh', '-c', 'sleep 30; exit 4'] });
  const started = (await cri.containerStatus({ containerId })).status;
  assert.equal(started!.startedAt, clock.now() * 1e6);
  await clock.advance(29_999);
  assert.equal((await cri.containerStatus({ containerId })).status!.state, 'CONTAINER_RUNNING');
  await clock.advance(1);
  const done = await waitFor(async () => (await cri.containerStatus({ containerId })).status, s => s!.state === 'CONTAINER_EXITED');
  assert.equal(done!.exitCode, 4);
  assert.equal(done!.finishedAt - done!.startedAt, 30_000 * 1e6);
});
