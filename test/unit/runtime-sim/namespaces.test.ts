// The sim's model of process namespaces and mounts, held to what containerd does: an ephemeral
// container joined to a target (NamespaceMode TARGET) sees the target's processes with `ps`, a
// container alone sees only its own, hostPID sees every container, containerd's refusals of a
// target that cannot be joined, and files read through a hostPath mount come from the host.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { criError, startSim, waitFor } from './sim-fixture.ts';

const ns = (pid: string, targetId = '') => ({ linux: { securityContext: { namespaceOptions: { network: 'POD', pid, ipc: 'POD', targetId } } } });

test('ps shows the processes of the PID namespace: own, the target\'s, the host\'s', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const app = await runContainer(pod, { metadata: { name: 'app' }, command: ['sleep', '3600'], ...ns('CONTAINER') });
  const ps = async (id: string) => Buffer.from((await cri.execSync({ containerId: id, cmd: ['ps'], timeout: 5 })).stdout).toString();
  // as the busybox of the test image prints it on containerd (no TIME column, uid 0)
  assert.equal(await ps(app), 'PID   USER     COMMAND\n    1 0        sleep 3600\n    2 0        ps\n');
  const dbg = await runContainer(pod, { metadata: { name: 'dbg' }, command: ['sh', '-c', 'sleep 999'], ...ns('TARGET', app) });
  assert.match(await ps(dbg), /^PID.*\n +1 0 +sleep 3600\n +2 0 +sh -c sleep 999\n +3 0 +ps\n$/);
  const fromScript = Buffer.from((await cri.execSync({ containerId: dbg, cmd: ['sh', '-c', 'ps'], timeout: 5 })).stdout).toString();
  assert.match(fromScript, /\n +3 0 +\{ps\} sh -c ps\n$/, 'a forked applet shows its shell\'s command line');
  assert.match(await ps(app), /sh -c sleep 999/, 'the target sees the container that joined it');
  const alone = await runContainer(pod, { metadata: { name: 'alone' }, command: ['sleep', '5'], ...ns('CONTAINER') });
  assert.doesNotMatch(await ps(alone), /sleep 3600/);
  const other = await runPod('q');
  const host = await runContainer(other, { metadata: { name: 'host' }, command: ['sleep', '7'], ...ns('NODE') });
  const all = await ps(host);
  for (const cmd of ['sleep 3600', 'sh -c sleep 999', 'sleep 5', 'sleep 7']) assert.ok(all.includes(cmd), `${cmd} in ${all}`);
});

test('a target that is missing, elsewhere or not running is refused as containerd refuses it', async t => {
  const { runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  await assert.rejects(runContainer(pod, { metadata: { name: 'd1' }, ...ns('TARGET', 'nope') }), criError('UNKNOWN', /invalid target container: container "nope" does not exist/));
  const stopped = await runContainer(pod, { metadata: { name: 'c' }, command: ['sleep', '1'] }, false);
  await assert.rejects(runContainer(pod, { metadata: { name: 'd2' }, ...ns('TARGET', stopped) }), criError('UNKNOWN', /is not running - in state CONTAINER_CREATED/));
  const other = await runPod('q');
  const there = await runContainer(other, { metadata: { name: 'x' }, command: ['sleep', '60'] });
  await assert.rejects(runContainer(pod, { metadata: { name: 'd3' }, ...ns('TARGET', there) }), criError('UNKNOWN', /does not belong to sandbox/));
});

test('files under a mount are read from the host path behind it', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const hostDir = await mkdtemp(join(tmpdir(), 'debug-sim-host-'));
  await writeFile(join(hostDir, 'hostname'), 'the-node\n');
  const pod = await runPod('p');
  const id = await runContainer(pod, { command: ['sh', '-c', 'cat /host/hostname; sleep 60'], mounts: [{ containerPath: '/host', hostPath: hostDir }] });
  const out = async (cmd: string[]) => Buffer.from((await cri.execSync({ containerId: id, cmd, timeout: 5 })).stdout).toString();
  await waitFor(() => out(['cat', '/host/hostname']), s => s === 'the-node\n');
  assert.equal(await out(['cat', '/host/missing']), '');
});
