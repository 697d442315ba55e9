import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideClaim, decideVolume, type ClaimWorld } from '../../../../src/controllers/volumes/binder-decide.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim, StorageV1StorageClass } from '../../../../src/schema/generated/types.ts';

const classes: Record<string, StorageV1StorageClass> = {
  standard: { metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'orch.io/local-path', volumeBindingMode: 'WaitForFirstConsumer', reclaimPolicy: 'Delete' },
  now: { metadata: { name: 'now' }, provisioner: 'example.com/nfs', volumeBindingMode: 'Immediate' },
  manual: { metadata: { name: 'manual' }, provisioner: 'kubernetes.io/no-provisioner' },
};

function world(volumes: CoreV1PersistentVolume[] = [], o: { noDefault?: boolean; waiting?: string[] } = {}): ClaimWorld {
  return {
    volume: n => volumes.find(v => v.metadata?.name === n),
    volumes: () => volumes,
    storageClass: n => classes[n],
    defaultClass: () => (o.noDefault ? undefined : classes.standard),
    unscheduledUsers: () => o.waiting ?? [],
  };
}

const claim = (o: { cls?: string | null; volumeName?: string; annotations?: Record<string, string>; phase?: string } = {}): CoreV1PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'ns', uid: 'c1', annotations: o.annotations },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: o.cls === null ? undefined : o.cls ?? 'manual', volumeName: o.volumeName },
  status: { phase: o.phase ?? 'Pending' },
});
const volume = (name: string, o: { cls?: string; claimRef?: { name: string; namespace: string; uid?: string }; phase?: string; policy?: string; provisioned?: boolean; boundByController?: boolean } = {}): CoreV1PersistentVolume => ({
  metadata: { name, annotations: { ...(o.provisioned ? { 'pv.kubernetes.io/provisioned-by': 'orch.io/local-path' } : {}), ...(o.boundByController ? { 'pv.kubernetes.io/bound-by-controller': 'yes' } : {}) } },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: o.cls ?? 'manual', claimRef: o.claimRef, persistentVolumeReclaimPolicy: o.policy ?? 'Retain', hostPath: { path: '/x' } },
  status: { phase: o.phase ?? 'Available' },
});

test('an unbound claim binds to a matching volume', () => {
  assert.deepEqual(decideClaim(claim(), world([volume('pv1')])), { kind: 'bind', volume: 'pv1' });
});

test('a claim of a WaitForFirstConsumer class waits for a pod, and says which pod it waits for', () => {
  const a = decideClaim(claim({ cls: 'standard' }), world([volume('pv1', { cls: 'standard' })]));
  assert.deepEqual(a, { kind: 'pending', event: { type: 'Normal', reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' } });
  const b = decideClaim(claim({ cls: 'standard' }), world([], { waiting: ['web-0'] }));
  assert.deepEqual(b, { kind: 'pending', event: { type: 'Normal', reason: 'WaitForPodScheduled', message: 'waiting for pod web-0 to be scheduled' } });
  const c = decideClaim(claim({ cls: 'standard' }), world([], { waiting: ['a', 'b'] }));
  assert.equal(c.kind === 'pending' && c.event?.message, 'waiting for pods a,b to be scheduled');
});

test('once the scheduler selected a node, the claim goes to its class\'s provisioner', () => {
  const a = decideClaim(claim({ cls: 'standard', annotations: { 'volume.kubernetes.io/selected-node': 'n1' } }), world());
  assert.equal(a.kind, 'provision');
  assert.equal(a.kind === 'provision' && a.provisioner, 'orch.io/local-path');
  assert.equal(a.kind === 'provision' && a.event.message, "Waiting for a volume to be created either by the external provisioner 'orch.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.");
  // Immediate classes provision at once
  assert.equal(decideClaim(claim({ cls: 'now' }), world()).kind, 'provision');
});

test('a claim without a class gets the default one; with no default and no volume it stays Pending', () => {
  assert.deepEqual(decideClaim(claim({ cls: null }), world()), { kind: 'assignClass', className: 'standard' });
  assert.deepEqual(decideClaim(claim({ cls: '' }), world()), { kind: 'pending', event: { type: 'Normal', reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set' } });
  assert.equal(decideClaim(claim({ cls: null }), world([], { noDefault: true })).kind, 'pending');
  assert.equal(decideClaim(claim({ cls: 'missing' }), world()).kind, 'pending');
});

test('a claim naming a volume binds to it if it fits, else waits with the reason', () => {
  assert.deepEqual(decideClaim(claim({ volumeName: 'pv1' }), world([volume('pv1')])), { kind: 'bind', volume: 'pv1' });
  const small = decideClaim(claim({ volumeName: 'pv1', cls: 'other' }), world([volume('pv1')]));
  assert.equal(small.kind === 'pending' && small.event?.message, 'Cannot bind to requested volume "pv1": storageClassName does not match');
  const taken = decideClaim(claim({ volumeName: 'pv1' }), world([volume('pv1', { claimRef: { name: 'x', namespace: 'ns', uid: 'u' } })]));
  assert.equal(taken.kind === 'pending' && taken.event?.message, 'volume "pv1" already bound to a different claim.');
  assert.deepEqual(decideClaim(claim({ volumeName: 'nope' }), world()), { kind: 'pending', event: undefined });
});

test('a bound claim stays bound, and is Lost when its volume goes or belongs to another', () => {
  const bound = { 'pv.kubernetes.io/bind-completed': 'yes' };
  assert.deepEqual(decideClaim(claim({ volumeName: 'pv1', annotations: bound, phase: 'Bound' }), world([volume('pv1', { claimRef: { name: 'data', namespace: 'ns', uid: 'c1' } })])), { kind: 'bind', volume: 'pv1' });
  const gone = decideClaim(claim({ volumeName: 'pv1', annotations: bound, phase: 'Bound' }), world());
  assert.equal(gone.kind === 'lost' && gone.event.message, 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
  const mis = decideClaim(claim({ volumeName: 'pv1', annotations: bound, phase: 'Bound' }), world([volume('pv1', { claimRef: { name: 'data', namespace: 'ns', uid: 'other' } })]));
  assert.equal(mis.kind === 'lost' && mis.event.reason, 'ClaimMisbound');
  assert.deepEqual(decideClaim(claim({ volumeName: 'pv1', annotations: bound, phase: 'Lost' }), world()), { kind: 'none' });
});

test('volumes: Available when free, Bound with their claim, Released when it is gone, then their reclaim policy', () => {
  const ref = { name: 'data', namespace: 'ns', uid: 'c1' };
  assert.deepEqual(decideVolume(volume('pv1'), undefined), { kind: 'phase', phase: 'Available' });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: { name: 'data', namespace: 'ns' } }), undefined), { kind: 'phase', phase: 'Available' });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref }), claim({ volumeName: 'pv1' })), { kind: 'phase', phase: 'Bound' });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref }), claim()), { kind: 'syncClaim', claim: 'ns/data' });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref }), undefined), { kind: 'release', reclaim: 'retain' });
  // a new claim of the same name is not the one the volume was bound to
  const newer = { ...claim({ volumeName: 'pv1' }), metadata: { name: 'data', namespace: 'ns', uid: 'c2' } };
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref }), newer), { kind: 'release', reclaim: 'retain' });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref, policy: 'Delete', provisioned: true }), undefined), { kind: 'release', reclaim: 'external-delete' });
  const manual = decideVolume(volume('pv1', { claimRef: ref, policy: 'Delete' }), undefined);
  assert.equal(manual.kind === 'release' && manual.reclaim, 'fail');
  assert.equal(manual.kind === 'release' && manual.event?.message, 'error getting deleter volume plugin for volume "pv1": no deletable volume plugin matched');
});

test('a volume whose claim went to another volume is unbound (or released, if it was provisioned for it)', () => {
  const ref = { name: 'data', namespace: 'ns', uid: 'c1' };
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref, boundByController: true }), claim({ volumeName: 'pv2' })), { kind: 'unbind', keepPreBinding: false });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref }), claim({ volumeName: 'pv2' })), { kind: 'unbind', keepPreBinding: true });
  assert.deepEqual(decideVolume(volume('pv1', { claimRef: ref, provisioned: true, policy: 'Delete' }), claim({ volumeName: 'pv2' })), { kind: 'release', reclaim: 'external-delete' });
});
