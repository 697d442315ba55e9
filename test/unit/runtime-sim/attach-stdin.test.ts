// CRI Attach on the sim to a container whose config asks for stdin and a terminal (as
// `kubectl debug -it` and `kubectl run -it` create them): the attached client's input reaches
// PID 1, its resize channel sizes PID 1's terminal, and `stdinOnce` decides whether the client's
// leaving ends that input or the next client goes on with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dialCommand, type CommandClient } from '../../../src/streaming/websocket/command-client.ts';
import { startSim, waitFor, type SimFixture } from './sim-fixture.ts';

async function attach(f: SimFixture, containerId: string, stdin = true): Promise<CommandClient & { out(): string }> {
  const { url } = await f.cri.attach({ containerId, stdin, stdout: true, stderr: false, tty: true });
  const c = await dialCommand(url);
  let out = '';
  c.stdout.on('data', (d: Buffer) => { out += d; });
  return Object.assign(c, { out: () => out });
}

const until = (what: string, ok: () => boolean) => waitFor(async () => ok(), v => v, 5000).catch(() => assert.fail(`waiting for ${what}`));
const state = async (f: SimFixture, containerId: string) => (await f.cri.containerStatus({ containerId })).status;

test('stdinOnce: the attached client drives PID 1 on its terminal, and its leaving ends the input', async t => {
  const f = await startSim(t);
  const pod = await f.runPod('debugged');
  const id = await f.runContainer(pod, { metadata: { name: 'dbg' }, command: ['sh'], stdin: true, stdinOnce: true, tty: true });
  const c = await attach(f, id);
  c.resize({ width: 100, height: 30 });
  c.stdin.write('echo hi-$HOSTNAME\nstty size\n');
  await until('the shell ran the lines', () => c.out().includes('hi-debugged') && c.out().includes('30 100'));
  assert.match(c.out(), /# /, 'a prompt on its terminal');
  c.stdin.end();
  c.close();
  // the end of its only input: sh exits as at end of file
  const s = await waitFor(() => state(f, id), v => v?.state === 'CONTAINER_EXITED');
  assert.equal(s?.exitCode, 0);
});

test('without stdinOnce the input stays open for the next client; exit ends PID 1 with its code', async t => {
  const f = await startSim(t);
  const pod = await f.runPod('reattached');
  const id = await f.runContainer(pod, { metadata: { name: 'c' }, command: ['sh'], stdin: true, stdinOnce: false, tty: true });
  const first = await attach(f, id);
  first.stdin.write('echo first\n');
  await until('the first line', () => first.out().includes('first\r\n'));
  first.stdin.end();
  first.close();
  await first.status;
  assert.equal((await state(f, id))?.state, 'CONTAINER_RUNNING', 'the first client leaving left the shell reading');
  const second = await attach(f, id);
  second.stdin.write('echo second\nexit 4\n');
  const s = await waitFor(() => state(f, id), v => v?.state === 'CONTAINER_EXITED');
  assert.equal(s?.exitCode, 4);
  assert.match(second.out(), /second/);
});

test('a shell waiting on an input nobody attached to still stops', async t => {
  const f = await startSim(t);
  const pod = await f.runPod('waiting');
  const id = await f.runContainer(pod, { metadata: { name: 'c' }, command: ['sh'], stdin: true, tty: true });
  assert.equal((await state(f, id))?.state, 'CONTAINER_RUNNING', 'reading its input, which stays open');
  await f.cri.stopContainer({ containerId: id, timeout: 0 });
  assert.equal((await state(f, id))?.state, 'CONTAINER_EXITED');
});
