import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanupOf } from '../../../../src/agent/volumes/local-path-cleanup.ts';

const pv = (o: { deleting?: boolean; node?: string; policy?: string; path?: string; finalizer?: boolean; ours?: boolean } = {}) => ({
  metadata: {
    name: 'pvc-1',
    deletionTimestamp: o.deleting === false ? undefined : '2026-01-01T00:00:00Z',
    finalizers: o.finalizer === false ? [] : ['external-provisioner.volume.kubernetes.io/finalizer'],
    annotations: { 'pv.kubernetes.io/provisioned-by': o.ours === false ? 'example.com/other' : 'orch.io/local-path', 'local.path.provisioner/selected-node': o.node ?? 'n1' },
  },
  spec: { persistentVolumeReclaimPolicy: o.policy ?? 'Delete', hostPath: { path: o.path ?? '/var/lib/orch/storage/pvc-1_ns_data' } },
});

test('a deleted local-path volume of this node: its directory goes (Delete), or only its finalizer (Retain)', () => {
  assert.deepEqual(cleanupOf(pv(), 'n1'), { remove: '/var/lib/orch/storage/pvc-1_ns_data' });
  assert.deepEqual(cleanupOf(pv({ policy: 'Retain' }), 'n1'), {});
});

test('volumes not deleted, of other nodes or provisioners, or without the finalizer are left alone', () => {
  assert.equal(cleanupOf(pv({ deleting: false }), 'n1'), undefined);
  assert.equal(cleanupOf(pv(), 'n2'), undefined);
  assert.equal(cleanupOf(pv({ ours: false }), 'n1'), undefined);
  assert.equal(cleanupOf(pv({ finalizer: false }), 'n1'), undefined);
});

test('only the directory the provisioner named for the volume is ever removed', () => {
  assert.deepEqual(cleanupOf(pv({ path: '/' }), 'n1'), {});
  assert.deepEqual(cleanupOf(pv({ path: '/etc' }), 'n1'), {});
  assert.deepEqual(cleanupOf(pv({ path: '/data/../etc/pvc-1_x' }), 'n1'), {});
  assert.deepEqual(cleanupOf(pv({ path: 'relative/pvc-1_ns_data' }), 'n1'), {});
});
