import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, exited, startSim } from './sim-fixture.ts';

test('exit codes and reasons follow the command', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const cases: Array<[string[], number, string]> = [
    [['true'], 0, 'Completed'],
    [['false'], 1, 'Error'],
    [['/bin/sh', '-c', 'exit 3'], 3, 'Error'],
    [['sh', '-c', 'echo starting; false || exit 0'], 0, 'Completed'],
    [['sh', '-c', 'true && false; exit $?'], 1, 'Error'],
    [['sh', '-c', 'sleep 0.05; exit 42'], 42, 'Error'],
    [['sh', '-c', 'for i in 1 2; do echo $i; done; if [ -f /nope ]; then exit 5; else exit 6; fi'], 6, 'Error'],
    [['sh', '-c', 'echo x > /tmp/ready; test -f /tmp/ready'], 0, 'Completed'],
    [['sleep', 'nonsense'], 1, 'Error'],
  ];
  const ids = await Promise.all(cases.map(([command], i) => runContainer(pod, { metadata: { name: `c${i}` }, command })));
  for (const [i, [command, code, reason]] of cases.entries()) {
    const s = await exited(cri, ids[i]!);
    assert.deepEqual([s.exitCode, s.reason], [code, reason], command.join(' '));
  }
});

test('commands the sim does not know, and no command at all, run until stopped', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const ids = [
    await runContainer(pod, { metadata: { name: 'nginx' }, command: ['nginx', '-g', 'daemon off;'] }),
    await runContainer(pod, { metadata: { name: 'image-default' } }),
    await runContainer(pod, { metadata: { name: 'busy' }, command: ['sh', '-c', 'while true; do echo tick; done'] }),
    await runContainer(pod, { metadata: { name: 'pipe' }, command: ['sh', '-c', 'yes | head -1'] }),
  ];
  await new Promise(r => setTimeout(r, 200));
  for (const containerId of ids) assert.equal((await cri.containerStatus({ containerId })).status!.state, 'CONTAINER_RUNNING', containerId);
});

test('annotations override what a container does: its own, or the pod\'s per container or for all', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p', { annotations: { 'runtime-sim.orch.io/exit-code.special': '9', 'runtime-sim.orch.io/run-seconds': '0.2' } });
  const own = await runContainer(pod, { metadata: { name: 'own' }, command: ['sleep', '3600'], annotations: { 'runtime-sim.orch.io/exit-code': '7', 'runtime-sim.orch.io/run-seconds': '0' } });
  const special = await runContainer(pod, { metadata: { name: 'special' }, command: ['sleep', '3600'] });
  const plain = await runContainer(pod, { metadata: { name: 'plain' }, command: ['sleep', '3600'] });

  const a = await exited(cri, own);
  assert.deepEqual([a.exitCode, a.reason], [7, 'Error']);
  const b = await exited(cri, special);
  assert.deepEqual([b.exitCode, b.reason], [9, 'Error']);
  assert.ok(b.finishedAt - b.startedAt >= 150e6, 'ran for the pod\'s run-seconds');
  const c = await exited(cri, plain);
  assert.deepEqual([c.exitCode, c.reason], [0, 'Completed']);

  await assert.rejects(runContainer(pod, { metadata: { name: 'bad' }, annotations: { 'runtime-sim.orch.io/exit-code': 'seven' } }), criError('INVALID_ARGUMENT', /runtime-sim\.orch\.io\/exit-code/));
});

test('a command missing from /bin fails to start as runc fails it: UNKNOWN, then exited with 128 and StartError', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const message = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "/bin/nonexistent": stat /bin/nonexistent: no such file or directory: unknown';
  const containerId = await runContainer(pod, { metadata: { name: 'missing' }, command: ['/bin/nonexistent'] }, false);
  await assert.rejects(cri.startContainer({ containerId }), (err: unknown) => criError('UNKNOWN')(err) && (err as Error).message.endsWith(message));
  const s = (await cri.containerStatus({ containerId })).status!;
  assert.deepEqual([s.state, s.exitCode, s.reason, s.message, s.startedAt], ['CONTAINER_EXITED', 128, 'StartError', message, 0]);
  assert.ok(s.finishedAt > 0);
  // busybox's applets and the shells are there, whether the sim interprets them or not
  for (const [name, command] of [['applet', ['/bin/wget', '-q', 'http://x']], ['shell', ['/bin/sh', '-c', 'sleep 3600']], ['elsewhere', ['/usr/local/bin/app']]] as const) {
    const id = await runContainer(pod, { metadata: { name }, command: [...command] });
    assert.equal((await cri.containerStatus({ containerId: id })).status!.state, 'CONTAINER_RUNNING', name);
  }
});
