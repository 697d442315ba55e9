// The agent's CRI client against real containerd: sandboxes with bridge networking, busybox
// containers from a locally built image, logs, exec, stop and removal, images, and the call
// containerd 1.6 does not implement.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectCri } from '../../src/agent/cri/client.ts';
import { CriError } from '../../src/agent/cri/errors.ts';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';

const image = 'docker.io/library/busybox:latest';

test('sandbox, container, logs, exec, stop and removal through the CRI on containerd', async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const runtime = await startContainerd();
  t.after(() => runtime.stop());
  await importBusyboxImage(runtime, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const cri = await connectCri(runtime.endpoint, { timeoutMs: 30_000 });
  t.after(() => cri.close());

  const version = await cri.version({});
  assert.equal(version.runtimeName, 'containerd');
  assert.equal(version.runtimeApiVersion, 'v1');
  const status = await cri.status({});
  assert.deepEqual(status.status!.conditions.map((c: any) => [c.type, c.status]), [['RuntimeReady', true], ['NetworkReady', true]]);

  const logDir = join(runtime.dir, 'pods', 'default_p1_uid1');
  await mkdir(logDir, { recursive: true });
  const sandboxConfig = { metadata: { name: 'p1', namespace: 'default', uid: 'uid1', attempt: 0 }, hostname: 'p1', logDirectory: logDir, linux: {} };
  const { podSandboxId } = await cri.runPodSandbox({ config: sandboxConfig });
  assert.ok(podSandboxId);
  const sandbox = await cri.podSandboxStatus({ podSandboxId });
  assert.equal(sandbox.status!.state, 'SANDBOX_READY');
  assert.match(sandbox.status!.network!.ip, /^\d+\.\d+\.\d+\.\d+$/);

  const { containerId } = await cri.createContainer({
    podSandboxId, sandboxConfig,
    config: { metadata: { name: 'c1', attempt: 0 }, image: { image }, command: ['sh', '-c', 'echo hello; sleep 3600'], logPath: 'c1/0.log', linux: {} },
  });
  await cri.startContainer({ containerId });
  const running = await cri.containerStatus({ containerId });
  assert.equal(running.status!.state, 'CONTAINER_RUNNING');
  let log = '';
  for (let i = 0; i < 50 && !log.includes('hello'); i++) { log = await readFile(join(logDir, 'c1/0.log'), 'utf8').catch(() => ''); await new Promise(r => setTimeout(r, 100)); }
  assert.match(log, /^\S+ stdout F hello$/m, 'the CRI log format');

  const exec = await cri.execSync({ containerId, cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeout: 10 });
  assert.equal(Buffer.from(exec.stdout).toString(), 'out\n');
  assert.equal(Buffer.from(exec.stderr).toString(), 'err\n');
  assert.equal(exec.exitCode, 3);

  const listed = await cri.listContainers({ filter: { podSandboxId } });
  assert.deepEqual(listed.containers.map((c: any) => c.id), [containerId]);
  assert.equal((await cri.listPodSandbox({ filter: { id: podSandboxId } })).items.length, 1);

  await cri.stopContainer({ containerId, timeout: 1 });
  const stopped = await cri.containerStatus({ containerId });
  assert.equal(stopped.status!.state, 'CONTAINER_EXITED');
  assert.ok([137, 143].includes(stopped.status!.exitCode), `ended by SIGTERM or, after the grace period, SIGKILL: ${stopped.status!.exitCode}`);

  await assert.rejects(cri.checkpointContainer({ containerId, location: join(runtime.dir, 'cp.tar') }), (err: Error) => err instanceof CriError && err.code === 'UNIMPLEMENTED');

  await cri.removeContainer({ containerId });
  await assert.rejects(cri.containerStatus({ containerId }), (err: Error) => err instanceof CriError && err.code === 'NOT_FOUND');
  await cri.stopPodSandbox({ podSandboxId });
  await cri.removePodSandbox({ podSandboxId });
  assert.equal((await cri.listPodSandbox({})).items.length, 0);

  const img = await cri.imageStatus({ image: { image } });
  assert.ok(img.image?.id.startsWith('sha256:'));
  assert.ok((await cri.listImages({})).images.some((i: any) => i.repoTags.includes(image)));
  await assert.rejects(cri.pullImage({ image: { image: 'registry.invalid/none:1' } }), (err: Error) => err instanceof CriError);
});
