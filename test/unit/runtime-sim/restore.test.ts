import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fakeClock } from '../agent/fake-clock.ts';
import { criError, startSim, waitFor } from './sim-fixture.ts';

const counter = ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo $i; echo $i > /var/count; sleep 1; done'];
const logLines = async (path: string) => (await readFile(path, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(l => l.split(' ').slice(3).join(' '));

test('a pod annotated orch.io/restore-from continues its container where the checkpoint left it', async t => {
  const clock = fakeClock();
  const { cri, dir, runPod, runContainer } = await startSim(t, { checkpoint: true, clock });
  const first = await runPod('first');
  const original = await runContainer(first, { metadata: { name: 'app', attempt: 0 }, command: counter });
  const firstLog = join(dir, 'pods', 'first', 'app/0.log');
  await waitFor(() => logLines(firstLog), l => l.length === 1);
  for (let n = 2; n <= 4; n++) {
    await clock.advance(1000);
    await waitFor(() => logLines(firstLog), l => l.length === n);
  }
  assert.deepEqual(await logLines(firstLog), ['1', '2', '3', '4']);
  const archive = join(dir, 'checkpoints', 'app.tar');
  await cri.checkpointContainer({ containerId: original, location: archive });

  // another pod (another node, as far as the runtime can tell), restored from the archive
  const second = await runPod('second', { annotations: { 'orch.io/restore-from': archive } });
  const restored = await runContainer(second, { metadata: { name: 'app', attempt: 0 }, command: counter });
  const secondLog = join(dir, 'pods', 'second', 'app/0.log');
  // the count goes on from 4, not from 1; its file too
  await waitFor(() => logLines(secondLog), l => l.length === 1);
  assert.deepEqual(await logLines(secondLog), ['5']);
  await clock.advance(1000);
  await waitFor(() => logLines(secondLog), l => l.length === 2);
  assert.deepEqual(await logLines(secondLog), ['5', '6']);
  assert.equal(Buffer.from((await cri.execSync({ containerId: restored, cmd: ['cat', '/var/count'], timeout: 2 })).stdout).toString(), '6\n');

  // the pod's other containers start afresh; an archive that is not there refuses the container
  const sidecar = await runContainer(second, { metadata: { name: 'side', attempt: 0 }, command: counter });
  await waitFor(() => logLines(join(dir, 'pods', 'second', 'side/0.log')), l => l.length === 1);
  assert.deepEqual(await logLines(join(dir, 'pods', 'second', 'side/0.log')), ['1']);
  assert.ok(sidecar);
  const third = await runPod('third', { annotations: { 'orch.io/restore-from': join(dir, 'none.tar') } });
  await assert.rejects(runContainer(third, { metadata: { name: 'app', attempt: 0 }, command: counter }), criError('INVALID_ARGUMENT', /failed to read checkpoint archive/));
});
