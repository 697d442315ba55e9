import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decideDeletingDependents, decideItem, invalidNamespaceMessage, removeFinalizerPatch, removeReferencesPatch, unblockReferencesPatch, verdictFor,
} from '../../../../src/controllers/garbage-collector/decisions.ts';
import type { GraphNode } from '../../../../src/controllers/garbage-collector/graph.ts';
import type { OwnerReference } from '../../../../src/controllers/garbage-collector/identity.ts';

const ref = (uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `n-${uid}`, uid, ...extra });
const node = (uid: string, owners: OwnerReference[] = [], extra: Partial<GraphNode> = {}): GraphNode => ({
  identity: { apiVersion: 'v1', kind: 'ConfigMap', name: `n-${uid}`, uid, namespace: 'ns' }, owners, dependents: new Set(), beingDeleted: false, deletingDependents: false, observed: true, ...extra,
});

test('a reference is dangling when the owner is absent or another object holds the name', () => {
  assert.equal(verdictFor(ref('a'), undefined), 'dangling');
  assert.equal(verdictFor(ref('a'), { uid: 'b' }), 'dangling');
  assert.equal(verdictFor(ref('a'), { uid: 'a' }), 'solid');
  // being deleted without foregroundDeletion (background, orphan) still owns
  assert.equal(verdictFor(ref('a'), { uid: 'a', deletionTimestamp: 't', finalizers: ['orphan'] }), 'solid');
  assert.equal(verdictFor(ref('a'), { uid: 'a', deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 'waiting');
  assert.equal(verdictFor(ref('a'), { uid: 'a', finalizers: ['foregroundDeletion'] }), 'solid');
});

test('one solid owner keeps the object; references to absent or foreground-deleting owners are removed', () => {
  const a = ref('a');
  const b = ref('b');
  const c = ref('c');
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'solid' }], []), { kind: 'none' });
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'solid' }, { ref: b, verdict: 'dangling' }, { ref: c, verdict: 'waiting' }], []), { kind: 'removeReferences', uids: ['b', 'c'] });
});

test('without a solid owner the object is deleted: in the foreground when an owner waits and it has dependents', () => {
  const a = ref('a');
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'dangling' }], []), { kind: 'delete', policy: 'Background' });
  assert.deepEqual(decideItem({ finalizers: ['orphan'] }, [{ ref: a, verdict: 'dangling' }], []), { kind: 'delete', policy: 'Orphan' });
  assert.deepEqual(decideItem({ finalizers: ['foregroundDeletion'] }, [{ ref: a, verdict: 'dangling' }], []), { kind: 'delete', policy: 'Foreground' });
  // waiting with no dependents: as if dangling
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'waiting' }], []), { kind: 'delete', policy: 'Background' });
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'waiting' }], [node('d')]), { kind: 'delete', policy: 'Foreground', unblockFirst: false });
  // a dependent deleting its own dependents could close a cycle of waits: unblock first
  assert.deepEqual(decideItem({}, [{ ref: a, verdict: 'waiting' }], [node('d', [], { deletingDependents: true })]), { kind: 'delete', policy: 'Foreground', unblockFirst: true });
});

test('an owner deleting its dependents first waits for the blocking ones only', () => {
  const owner = node('o');
  assert.deepEqual(decideDeletingDependents(owner), { removeFinalizer: true });
  const loose = node('l', [ref('o')]);
  const blocking = node('b', [ref('o', { blockOwnerDeletion: true })]);
  const blockingBusy = node('bb', [ref('o', { blockOwnerDeletion: true })], { deletingDependents: true, beingDeleted: true });
  owner.dependents = new Set([loose]);
  assert.deepEqual(decideDeletingDependents(owner), { removeFinalizer: true });
  owner.dependents = new Set([loose, blocking, blockingBusy]);
  assert.deepEqual(decideDeletingDependents(owner), { removeFinalizer: false, deleteDependents: [blocking] });
});

test('patches: conditional on the resourceVersion (or uid), the field dropped when nothing is left', () => {
  const meta = { uid: 'me', resourceVersion: '7', ownerReferences: [ref('a'), ref('b', { blockOwnerDeletion: true })], finalizers: ['orphan'] };
  assert.deepEqual(removeReferencesPatch(meta, ['a']), { metadata: { ownerReferences: [ref('b', { blockOwnerDeletion: true })], resourceVersion: '7' } });
  assert.deepEqual(removeReferencesPatch(meta, ['a', 'b']), { metadata: { ownerReferences: null, resourceVersion: '7' } });
  assert.deepEqual(unblockReferencesPatch(meta), { metadata: { ownerReferences: [ref('a'), ref('b', { blockOwnerDeletion: false })], uid: 'me', resourceVersion: '7' } });
  assert.deepEqual(removeFinalizerPatch(meta, 'orphan'), { metadata: { finalizers: null, resourceVersion: '7' } });
  assert.equal(removeFinalizerPatch(meta, 'foregroundDeletion'), undefined);
});

test('the OwnerRefInvalidNamespace message, as kube-controller-manager words it', () => {
  assert.equal(invalidNamespaceMessage({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u', namespace: 'b' }, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'w' }),
    'ownerRef [apps/v1/Deployment, namespace: b, name: web, uid: w] does not exist in namespace "b"');
});
