import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, exited, startSim, waitFor } from './sim-fixture.ts';

test('ExecSync runs the shell subset in the container and answers its output and status', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sh', '-c', 'echo ok > /tmp/healthy; sleep 3600'], envs: [{ key: 'MODE', value: Buffer.from('prod') }] });
  const exec = async (cmd: string[], timeout = 5) => {
    const r = await cri.execSync({ containerId, cmd, timeout });
    return [Buffer.from(r.stdout).toString(), Buffer.from(r.stderr).toString(), r.exitCode];
  };
  await waitFor(() => exec(['test', '-f', '/tmp/healthy']), r => r[2] === 0);
  assert.deepEqual(await exec(['true']), ['', '', 0]);
  assert.deepEqual(await exec(['false']), ['', '', 1]);
  assert.deepEqual(await exec(['sh', '-c', 'exit 3']), ['', '', 3]);
  assert.deepEqual(await exec(['echo', 'x', 'y']), ['x y\n', '', 0]);
  assert.deepEqual(await exec(['sh', '-c', 'echo out; echo err >&2; exit 3']), ['out\n', 'err\n', 3], 'as the containerd test expects of busybox');
  assert.deepEqual(await exec(['cat', '/tmp/healthy']), ['ok\n', '', 0], 'a file the container wrote');
  assert.deepEqual(await exec(['cat', '/tmp/missing']), ['', "cat: can't open '/tmp/missing': No such file or directory\n", 1]);
  assert.deepEqual(await exec(['sh', '-c', 'echo $MODE $HOSTNAME']), ['prod p\n', '', 0]);
  assert.deepEqual(await exec(['sh', '-c', 'rm /tmp/healthy && cat /tmp/healthy']), ['', "cat: can't open '/tmp/healthy': No such file or directory\n", 1], 'exec writes where the container reads');
  assert.deepEqual(await exec(['/usr/local/bin/healthcheck', '--quick']), ['', '', 0], 'a program the image would have succeeds');
});

test('ExecSync honours its timeout and needs a running container', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sleep', '3600'] });
  const before = Date.now();
  await assert.rejects(cri.execSync({ containerId, cmd: ['sleep', '10'], timeout: 1 }), criError('DEADLINE_EXCEEDED', /timeout 1s exceeded/));
  const took = Date.now() - before;
  assert.ok(took >= 950 && took < 3000, `${took} ms`);

  const created = await runContainer(pod, { metadata: { name: 'c2' } }, false);
  await assert.rejects(cri.execSync({ containerId: created, cmd: ['true'], timeout: 1 }), criError('UNKNOWN', /container is in CONTAINER_CREATED state/));
  const gone = await runContainer(pod, { metadata: { name: 'c3' }, command: ['true'] });
  await exited(cri, gone);
  await assert.rejects(cri.execSync({ containerId: gone, cmd: ['true'], timeout: 1 }), criError('UNKNOWN', /container is in CONTAINER_EXITED state/));
});
