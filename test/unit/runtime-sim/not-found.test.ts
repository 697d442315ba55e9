import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, startSim } from './sim-fixture.ts';

const missing = 'f'.repeat(64);

test('unknown sandboxes and containers answer NOT_FOUND in containerd\'s words', async t => {
  const { cri, runPod } = await startSim(t);
  await assert.rejects(cri.podSandboxStatus({ podSandboxId: missing }), criError('NOT_FOUND', /^rpc error: code = NotFound desc = an error occurred when try to find sandbox: not found$/));
  await assert.rejects(cri.stopPodSandbox({ podSandboxId: missing }), criError('NOT_FOUND', /an error occurred when try to find sandbox "f{64}": not found/));
  for (const call of ['containerStatus', 'startContainer', 'stopContainer', 'execSync', 'updateContainerResources', 'reopenContainerLog'] as const) {
    await assert.rejects(cri[call]({ containerId: missing, cmd: ['true'] }), criError('NOT_FOUND', /an error occurred when try to find container "f{64}": not found/), call);
  }
  const pod = await runPod('p');
  await assert.rejects(
    cri.createContainer({ podSandboxId: missing, config: { metadata: { name: 'c' }, image: { image: 'busybox' } } }),
    criError('NOT_FOUND', /failed to find sandbox id "f{64}": not found/),
  );
  await assert.rejects(
    cri.createContainer({ podSandboxId: pod.podSandboxId, sandboxConfig: pod.sandboxConfig, config: { metadata: { name: 'c' }, image: { image: 'nginx:1.27' } } }),
    criError('NOT_FOUND', /failed to resolve image "nginx:1\.27": not found/),
  );
  // removal is idempotent: what is gone is gone
  await cri.removeContainer({ containerId: missing });
  await cri.removePodSandbox({ podSandboxId: missing });
});

test('a unique id prefix finds the object, as in containerd', async t => {
  const { cri, runPod, runContainer } = await startSim(t, { newId: sequentialIds() });
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { metadata: { name: 'one' } }, false);
  await runContainer(pod, { metadata: { name: 'two' } }, false);
  assert.equal((await cri.podSandboxStatus({ podSandboxId: pod.podSandboxId.slice(0, 4) })).status!.id, pod.podSandboxId);
  assert.equal((await cri.containerStatus({ containerId: containerId.slice(0, 4) })).status!.id, containerId);
  // every id begins "ab": a prefix two containers share finds neither
  await assert.rejects(cri.containerStatus({ containerId: 'ab' }), criError('NOT_FOUND'));
});

function sequentialIds() {
  let n = 0;
  return () => `ab${String(++n).padStart(2, '0')}${'e'.repeat(60)}`;
}
