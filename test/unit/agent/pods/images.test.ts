import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartBackoff } from '../../../../src/agent/pods/backoff.ts';
import { ensureImage, type PullFailures } from '../../../../src/agent/pods/images.ts';
import { ContainerStartError } from '../../../../src/agent/pods/config-errors.ts';
import type { CriClient } from '../../../../src/agent/cri/client.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const pod: Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [] } };
const err = 'rpc error: code = NotFound desc = failed to pull and unpack image "reg/x:1": not found';

test('image pulls: ErrImagePull with the runtime\'s error, ImagePullBackOff naming it until the back-off ends, then a new pull', async () => {
  let now = 1_000_000;
  let pulls = 0;
  const cri = { imageStatus: async () => ({}), pullImage: async () => { pulls++; throw new Error(err); } } as unknown as CriClient;
  const backoff = restartBackoff(() => now);
  const failures: PullFailures = new Map();
  const events: string[] = [];
  const attempt = () => ensureImage(cri, pod, { name: 'c', image: 'reg/x:1', imagePullPolicy: 'IfNotPresent' }, backoff, () => now, (_t, r, m) => events.push(`${r}: ${m}`), failures)
    .then(() => assert.fail('pulled'), (e: ContainerStartError) => [e.reason, e.message]);

  assert.deepEqual(await attempt(), ['ErrImagePull', err]);
  assert.deepEqual(events.splice(0), ['Pulling: Pulling image "reg/x:1"', `Failed: Failed to pull image "reg/x:1": ${err}`, 'Failed: Error: ErrImagePull']);
  now += 5_000;
  assert.deepEqual(await attempt(), ['ImagePullBackOff', `Back-off pulling image "reg/x:1": ErrImagePull: ${err}`]);
  assert.deepEqual(events.splice(0), ['BackOff: Back-off pulling image "reg/x:1"']);
  assert.equal(pulls, 1);
  // 10 s after the failure the image is pulled again; the next back-off is 20 s
  now += 5_001;
  assert.deepEqual((await attempt())[0], 'ErrImagePull');
  assert.equal(pulls, 2);
  now += 19_000;
  assert.deepEqual((await attempt())[0], 'ImagePullBackOff');
  now += 1_001;
  assert.deepEqual((await attempt())[0], 'ErrImagePull');
  assert.equal(pulls, 3);
});

test('pull policy Never with the image absent: ErrImageNeverPull in the kubelet\'s words', async () => {
  const cri = { imageStatus: async () => ({}) } as unknown as CriClient;
  await assert.rejects(ensureImage(cri, pod, { name: 'c', image: 'reg/x:1', imagePullPolicy: 'Never' }, restartBackoff(() => 0), () => 0, () => undefined),
    (e: ContainerStartError) => e.reason === 'ErrImageNeverPull' && e.message === 'Container image "reg/x:1" is not present with pull policy of Never');
});
