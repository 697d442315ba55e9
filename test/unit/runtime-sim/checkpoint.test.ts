import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { criError, startSim, waitFor } from './sim-fixture.ts';

test('CheckpointContainer writes a tar archive that tar reads', async t => {
  const { cri, dir, runPod, runContainer } = await startSim(t, { checkpoint: true });
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { metadata: { name: 'app' }, command: ['sh', '-c', 'echo state > /var/lib/app/data; sleep 3600'], annotations: { owner: 'me' } });
  await waitFor(async () => Buffer.from((await cri.execSync({ containerId, cmd: ['cat', '/var/lib/app/data'], timeout: 2 })).stdout).toString(), s => s === 'state\n');
  const location = join(dir, 'checkpoints', 'app.tar');
  await cri.checkpointContainer({ containerId, location });

  assert.deepEqual(execFileSync('tar', ['-tf', location], { encoding: 'utf8' }).trim().split('\n'), ['config.dump', 'spec.dump', 'status.dump', 'rootfs-diff.tar']);
  const config = JSON.parse(execFileSync('tar', ['-xOf', location, 'config.dump'], { encoding: 'utf8' }));
  assert.equal(config.id, containerId);
  assert.equal(config.name, 'app');
  assert.equal(config.rootfsImageName, 'docker.io/library/busybox:latest');
  const spec = JSON.parse(execFileSync('tar', ['-xOf', location, 'spec.dump'], { encoding: 'utf8' }));
  assert.deepEqual(spec.process.args, ['sh', '-c', 'echo state > /var/lib/app/data; sleep 3600']);
  assert.equal(spec.annotations.owner, 'me');
  assert.equal(spec.annotations['io.kubernetes.cri.sandbox-id'], pod.podSandboxId);
  execFileSync('tar', ['-xf', location, '-C', dir, 'rootfs-diff.tar']);
  assert.equal(execFileSync('tar', ['-xOf', join(dir, 'rootfs-diff.tar'), 'var/lib/app/data'], { encoding: 'utf8' }), 'state\n');
  assert.equal((await cri.containerStatus({ containerId })).status!.state, 'CONTAINER_RUNNING', 'the container keeps running');
});

test('long names go into the ustar prefix field', async t => {
  const { cri, dir, runPod, runContainer } = await startSim(t, { checkpoint: true });
  const pod = await runPod('p');
  const deep = `/${'d'.repeat(60)}/${'e'.repeat(60)}/file.txt`;
  const containerId = await runContainer(pod, { command: ['sh', '-c', `echo x > ${deep}; sleep 3600`] });
  await waitFor(async () => (await cri.execSync({ containerId, cmd: ['test', '-f', deep], timeout: 2 })).exitCode, c => c === 0);
  const location = join(dir, 'cp.tar');
  await cri.checkpointContainer({ containerId, location });
  execFileSync('tar', ['-xf', location, '-C', dir, 'rootfs-diff.tar']);
  assert.equal(execFileSync('tar', ['-tf', join(dir, 'rootfs-diff.tar')], { encoding: 'utf8' }).trim(), deep.slice(1));
});

test('without --checkpoint CheckpointContainer is UNIMPLEMENTED, as in containerd 1.6', async t => {
  const { cri, dir, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sleep', '3600'] });
  await assert.rejects(
    cri.checkpointContainer({ containerId, location: join(dir, 'cp.tar') }),
    criError('UNIMPLEMENTED', /^rpc error: code = Unimplemented desc = method CheckpointContainer not implemented$/),
  );
});

test('the archive is 0600; a timeout shorter than the dump ends it DEADLINE_EXCEEDED with nothing written', async t => {
  const { cri, dir, runPod, runContainer } = await startSim(t, { checkpoint: true, checkpointDelayMs: 1200 });
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sleep', '3600'] });
  const location = join(dir, 'checkpoints', 'slow.tar');
  const began = Date.now();
  await assert.rejects(cri.checkpointContainer({ containerId, location, timeout: 1 }), criError('DEADLINE_EXCEEDED', /did not finish within 1s$/));
  assert.ok(Date.now() - began >= 950, 'the runtime gave up at the timeout, not before');
  assert.equal(existsSync(location), false);
  await cri.checkpointContainer({ containerId, location, timeout: 2 });
  assert.equal(statSync(location).mode & 0o777, 0o600);
});
