import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podView } from '../../../../src/controllers/pod-view.ts';
import { ClaimIndex, claimsOfPod, claimUser } from '../../../../src/controllers/volumes/claim-users.ts';
import { claimInUse } from '../../../../src/controllers/volumes/protection.ts';

const pod = (name: string, o: { node?: string; phase?: string } = {}) => ({
  metadata: { name, namespace: 'ns', uid: `u-${name}` },
  spec: {
    nodeName: o.node,
    containers: [{ name: 'c', image: 'x' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'cfg', configMap: { name: 'cfg' } }],
  },
  status: { phase: o.phase ?? 'Running' },
});

test('the claims a pod uses: named ones, and <pod>-<volume> for generic ephemeral volumes; the shared pod view keeps them for placed pods', () => {
  assert.deepEqual(claimsOfPod(pod('web') as never), ['data', 'web-scratch']);
  const viewed = podView(pod('web', { node: 'n1' }) as never);
  assert.deepEqual(claimsOfPod(viewed), ['data', 'web-scratch']);
  assert.equal(viewed.spec?.volumes?.length, 2, 'only the volumes that name claims are kept');
  assert.equal(podView({ ...pod('plain', { node: 'n1' }), spec: { nodeName: 'n1', containers: [] } } as never).spec?.volumes, undefined);
});

test('a claim is in use while a pod naming it has not finished', () => {
  const index = new ClaimIndex();
  const running = claimUser(pod('a') as never), done = claimUser(pod('b', { phase: 'Succeeded' }) as never);
  index.add(running);
  index.add(done);
  assert.equal(claimInUse(index.users('ns/data')), true);
  index.remove(running);
  assert.equal(claimInUse(index.users('ns/data')), false, 'a finished pod does not hold it');
  assert.deepEqual(index.users('ns/data').map(u => u.metadata.name), ['b']);
  index.remove(done);
  assert.deepEqual(index.users('ns/data'), []);
});
