import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { connectCri } from '../../../src/agent/cri/client.ts';

const orch = resolve(import.meta.dirname, '../../../bin/orch');

test('orch runtime-sim serves the CRI on its socket and leaves on SIGTERM', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-sim-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const socket = join(dir, 'run', 'cri.sock');
  const child = spawn(orch, ['runtime-sim', '--socket', socket, '--start-delay', '10ms', '--preload-images', 'busybox,registry.k8s.io/pause:3.10', '--checkpoint'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  let out = '', err = '';
  child.stdout.on('data', d => { out += d; });
  child.stderr.on('data', d => { err += d; });
  const deadline = Date.now() + 15_000;
  while (!out.includes('\n') && Date.now() < deadline && child.exitCode === null) await new Promise(r => setTimeout(r, 25));
  assert.equal(out, `orch runtime-sim serving the CRI on unix://${socket}\n`, err);

  const cri = await connectCri(`unix://${socket}`, { timeoutMs: 5000 });
  const version = await cri.version({});
  assert.deepEqual([version.runtimeName, version.runtimeApiVersion], ['orch-runtime-sim', 'v1']);
  assert.match(version.runtimeVersion, /^\d+\.\d+\.\d+/);
  assert.equal((await cri.listImages({})).images.length, 2);
  cri.close();

  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exit;
  assert.equal(code, 0, err);
  assert.equal(existsSync(socket), false, 'the socket is removed');
});

/** runs orch to its end: exit status and output */
function runOrch(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(orch, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', d => { stdout += d; });
  child.stderr.on('data', d => { stderr += d; });
  return once(child, 'close').then(([status]) => ({ status: status as number | null, stdout, stderr }));
}

test('orch runtime-sim --help lists its flags; bad flags are usage errors', async () => {
  const [help, noSocket, badDelay, badSubnet] = await Promise.all([
    runOrch(['runtime-sim', '--help']),
    runOrch(['runtime-sim']),
    runOrch(['runtime-sim', '--socket', '/tmp/never.sock', '--start-delay', 'soon']),
    runOrch(['runtime-sim', '--socket', '/tmp/never.sock', '--pod-subnet', '10.0.0.0/33']),
  ]);
  assert.equal(help.status, 0);
  for (const f of ['--socket', '--start-delay', '--pull-delay', '--pod-subnet', '--checkpoint', '--unpullable-images', '--preload-images', '-v, --v']) assert.ok(help.stdout.includes(f), f);
  assert.equal(noSocket.status, 2);
  assert.match(noSocket.stderr, /--socket is required/);
  assert.equal(badDelay.status, 2);
  assert.match(badDelay.stderr, /invalid duration "soon"/);
  assert.equal(badSubnet.status, 2);
  assert.match(badSubnet.stderr, /invalid pod subnet/);
});
