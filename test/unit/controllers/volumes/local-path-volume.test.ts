import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localPathVolume } from '../../../../src/controllers/volumes/local-path-volume.ts';
import type { Claim } from '../../../../src/controllers/volumes/claims.ts';

const sc = { metadata: { name: 'standard' }, provisioner: 'orch.io/local-path', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer' };
const node = { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1-host' } } };
const claim = (o: { modes?: string[]; node?: string } = {}): Claim => ({
  metadata: { name: 'data', namespace: 'apps', uid: '1234', resourceVersion: '7', annotations: o.node === undefined ? { 'volume.kubernetes.io/selected-node': 'n1' } : o.node ? { 'volume.kubernetes.io/selected-node': o.node } : {} },
  spec: { accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } }, storageClassName: 'standard' },
});

test('the volume is a hostPath directory on the selected node, pre-bound to the claim', () => {
  const made = localPathVolume(claim(), sc, node, '/var/lib/orch/storage/');
  assert.ok('volume' in made);
  const v = made.volume;
  assert.equal(v.metadata?.name, 'pvc-1234');
  assert.equal(v.metadata?.annotations?.['pv.kubernetes.io/provisioned-by'], 'orch.io/local-path');
  assert.deepEqual(v.metadata?.finalizers, ['external-provisioner.volume.kubernetes.io/finalizer']);
  assert.deepEqual(v.spec?.hostPath, { path: '/var/lib/orch/storage/pvc-1234_apps_data', type: 'DirectoryOrCreate' });
  assert.deepEqual(v.spec?.capacity, { storage: '2Gi' });
  assert.equal(v.spec?.persistentVolumeReclaimPolicy, 'Delete');
  assert.equal(v.spec?.storageClassName, 'standard');
  assert.deepEqual(v.spec?.nodeAffinity?.required?.nodeSelectorTerms, [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1-host'] }] }]);
  assert.deepEqual(v.spec?.claimRef, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'apps', name: 'data', uid: '1234', resourceVersion: '7' });
});

test('shared access modes and a missing node are refused', () => {
  const many = localPathVolume(claim({ modes: ['ReadWriteMany'] }), sc, node, '/d');
  assert.ok('error' in many && /Only support ReadWriteOnce/.test(many.error));
  const none = localPathVolume(claim({ node: '' }), sc, undefined, '/d');
  assert.ok('error' in none);
  assert.equal(none.error, 'failed to provision volume with StorageClass "standard": configuration error, no node was specified');
});

test('a relative volume directory is refused, not made relative to wherever an agent runs', () => {
  const made = localPathVolume(claim(), sc, node, 'storage');
  assert.ok('error' in made);
  assert.equal(made.error, 'failed to provision volume with StorageClass "standard": configuration error, the volume directory "storage" is not an absolute path');
});
