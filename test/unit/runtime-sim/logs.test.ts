import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { exited, startSim, waitFor } from './sim-fixture.ts';

const entry = /^(\S+) (stdout|stderr) ([FP]) (.*)$/;

test('output goes to the log path in the CRI log format', async t => {
  const { cri, dir, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, {
    metadata: { name: 'app' },
    command: ['sh', '-c', 'echo hello $GREETING; echo oops >&2; printf "a\\nb\\n"; echo -n unfinished'],
    envs: [{ key: 'GREETING', value: Buffer.from('world') }],
  });
  const status = await exited(cri, containerId);
  assert.equal(status.logPath, join(dir, 'pods', 'p', 'app/0.log'));
  const lines = (await readFile(status.logPath, 'utf8')).split('\n');
  assert.equal(lines.pop(), '', 'every entry ends with a newline');
  const parsed = lines.map(l => entry.exec(l));
  assert.ok(parsed.every(Boolean), lines.join('\n'));
  assert.deepEqual(parsed.map(m => [m![2], m![3], m![4]]), [
    ['stdout', 'F', 'hello world'],
    ['stderr', 'F', 'oops'],
    ['stdout', 'F', 'a'],
    ['stdout', 'F', 'b'],
    // output that ends without a newline: a partial record, as containerd writes it
    ['stdout', 'P', 'unfinished'],
  ]);
  for (const m of parsed) {
    assert.match(m![1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/, 'RFC 3339 with nanoseconds, trailing zeros dropped');
    assert.ok(Math.abs(Date.parse(m![1]!) - Date.now()) < 60_000);
  }
});

test('a restarted container appends to the same log; a rotated log is written anew', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const first = await runContainer(pod, { metadata: { name: 'c', attempt: 0 }, command: ['echo', 'first run'], logPath: 'c/0.log' });
  await exited(cri, first);
  const second = await runContainer(pod, { metadata: { name: 'c', attempt: 1 }, command: ['echo', 'second run'], logPath: 'c/0.log' });
  const { logPath } = await exited(cri, second);
  assert.deepEqual((await readFile(logPath, 'utf8')).trim().split('\n').map(l => entry.exec(l)![4]), ['first run', 'second run']);

  const ticking = await runContainer(pod, { metadata: { name: 't' }, command: ['sh', '-c', 'echo one; sleep 0.3; echo two; sleep 3600'], logPath: 't/0.log' });
  const path = (await cri.containerStatus({ containerId: ticking })).status!.logPath;
  await waitFor(() => readFile(path, 'utf8').catch(() => ''), s => s.includes('one'));
  await rename(path, `${path}.1`);
  await cri.reopenContainerLog({ containerId: ticking });
  const rotated = await waitFor(() => readFile(path, 'utf8').catch(() => ''), s => s.includes('two'));
  assert.equal(rotated.trim().split('\n').length, 1);
  assert.match(await readFile(`${path}.1`, 'utf8'), /stdout F one\n$/);
});

test('without a log directory or log path nothing is written and the path is empty', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p', { logDirectory: '' });
  const containerId = await runContainer(pod, { command: ['echo', 'lost'] });
  assert.equal((await exited(cri, containerId)).logPath, '');
});
