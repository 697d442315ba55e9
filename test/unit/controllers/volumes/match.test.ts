import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMatchingVolume, volumeUnfitForClaim } from '../../../../src/controllers/volumes/match.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../../../src/schema/generated/types.ts';

const pv = (name: string, size: string, o: Partial<NonNullable<CoreV1PersistentVolume['spec']>> & { phase?: string; labels?: Record<string, string>; deleting?: boolean } = {}): CoreV1PersistentVolume => {
  const { phase, labels, deleting, ...spec } = o;
  return {
    metadata: { name, labels, deletionTimestamp: deleting ? '2026-01-01T00:00:00Z' : undefined },
    spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], storageClassName: 'manual', hostPath: { path: `/data/${name}` }, ...spec },
    status: { phase: phase ?? 'Available' },
  };
};
const pvc = (size: string, o: Partial<NonNullable<CoreV1PersistentVolumeClaim['spec']>> = {}): CoreV1PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default', uid: 'claim-uid' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, storageClassName: 'manual', ...o },
});
const node = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } } });
const names = (v: CoreV1PersistentVolume | undefined) => v?.metadata?.name;

test('the smallest Available volume that holds the request, of the same class and modes, is chosen', () => {
  const vols = [pv('big', '10Gi'), pv('small', '1Gi'), pv('fits', '2Gi'), pv('exact', '1500Mi')];
  assert.equal(names(findMatchingVolume(pvc('1500Mi'), vols)), 'exact');
  assert.equal(names(findMatchingVolume(pvc('3Gi'), vols)), 'big');
  assert.equal(findMatchingVolume(pvc('20Gi'), vols), undefined);
  // quantities compare by value, not spelling
  assert.equal(names(findMatchingVolume(pvc('1073741824'), [pv('g', '1Gi')])), 'g');
});

test('class, volume mode, access modes, phase, claimRef, deletion and selectors rule volumes out', () => {
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('other-class', '1Gi', { storageClassName: 'fast' })]), undefined);
  assert.equal(findMatchingVolume(pvc('1Gi', { storageClassName: '' }), [pv('classless', '1Gi', { storageClassName: undefined })])?.metadata?.name, 'classless');
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('block', '1Gi', { volumeMode: 'Block' })]), undefined);
  assert.equal(findMatchingVolume(pvc('1Gi', { accessModes: ['ReadWriteMany'] }), [pv('rwo', '1Gi')]), undefined);
  assert.equal(names(findMatchingVolume(pvc('1Gi', { accessModes: ['ReadOnlyMany'] }), [pv('both', '1Gi', { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] })])), 'both');
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('released', '1Gi', { phase: 'Released' })]), undefined);
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('taken', '1Gi', { claimRef: { name: 'other', namespace: 'default', uid: 'x' } })]), undefined);
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('going', '1Gi', { deleting: true })]), undefined);
  const sel = pvc('1Gi', { selector: { matchLabels: { tier: 'db' } } });
  assert.equal(names(findMatchingVolume(sel, [pv('web', '1Gi', { labels: { tier: 'web' } }), pv('db', '5Gi', { labels: { tier: 'db' } })])), 'db');
});

test('a volume pre-bound to the claim wins over a smaller free one, and is the only match when binding waits for a consumer', () => {
  const pre = pv('pre', '5Gi', { claimRef: { name: 'data', namespace: 'default' } });
  assert.equal(names(findMatchingVolume(pvc('1Gi'), [pv('free', '1Gi'), pre])), 'pre');
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('free', '1Gi')], { delayBinding: true }), undefined);
  assert.equal(names(findMatchingVolume(pvc('1Gi'), [pv('free', '1Gi'), pre], { delayBinding: true })), 'pre');
  // pre-bound to another claim of the same name (another uid): not ours
  assert.equal(findMatchingVolume(pvc('1Gi'), [pv('old', '1Gi', { claimRef: { name: 'data', namespace: 'default', uid: 'older' } })]), undefined);
});

test('for the scheduler, volumes must be reachable from the node', () => {
  const local = (n: string) => pv(`on-${n}`, '1Gi', { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [n] }] }] } } });
  const vols = [local('a'), local('b')];
  assert.equal(names(findMatchingVolume(pvc('1Gi'), vols, { node: node('b'), delayBinding: true })), 'on-b');
  assert.equal(findMatchingVolume(pvc('1Gi'), vols, { node: node('c'), delayBinding: true }), undefined);
  assert.equal(findMatchingVolume(pvc('1Gi'), vols, { node: node('a'), excluded: new Set(['on-a']) }), undefined);
});

test('a volume the claim names is checked in the binder\'s words', () => {
  assert.equal(volumeUnfitForClaim(pv('v', '1Gi'), pvc('2Gi')), 'requested PV is too small');
  assert.equal(volumeUnfitForClaim(pv('v', '1Gi', { storageClassName: 'x' }), pvc('1Gi')), 'storageClassName does not match');
  assert.equal(volumeUnfitForClaim(pv('v', '1Gi', { volumeMode: 'Block' }), pvc('1Gi')), 'incompatible volumeMode');
  assert.equal(volumeUnfitForClaim(pv('v', '1Gi'), pvc('1Gi', { accessModes: ['ReadWriteMany'] })), 'incompatible accessMode');
  assert.equal(volumeUnfitForClaim(pv('v', '1Gi'), pvc('1Gi')), undefined);
});
