import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultGarbageCollectionPolicy, defaultPropagationWarning, deletionFinalizers } from '../../../src/registry/gc-policy.ts';

const cm = { group: '', version: 'v1', resource: 'configmaps' };

test('the request names the policy: its finalizer is put last, the other one removed', () => {
  assert.deepEqual(deletionFinalizers(['a'], { propagationPolicy: 'Orphan' }, 'DeleteDependents'), { changed: true, finalizers: ['a', 'orphan'] });
  assert.deepEqual(deletionFinalizers(['a'], { propagationPolicy: 'Foreground' }, 'DeleteDependents'), { changed: true, finalizers: ['a', 'foregroundDeletion'] });
  assert.deepEqual(deletionFinalizers(['orphan', 'a'], { propagationPolicy: 'Foreground' }, 'DeleteDependents'), { changed: true, finalizers: ['a', 'foregroundDeletion'] });
  assert.deepEqual(deletionFinalizers(['foregroundDeletion', 'a'], { propagationPolicy: 'Background' }, 'DeleteDependents'), { changed: true, finalizers: ['a'] });
  assert.deepEqual(deletionFinalizers(undefined, { propagationPolicy: 'Background' }, 'OrphanDependents'), { changed: false, finalizers: [] });
  // the same set in another order is no change
  assert.deepEqual(deletionFinalizers(['orphan', 'a'], { propagationPolicy: 'Orphan' }, 'DeleteDependents'), { changed: false, finalizers: ['orphan', 'a'] });
});

test('orphanDependents is the older form and wins over everything', () => {
  assert.deepEqual(deletionFinalizers(['foregroundDeletion'], { orphanDependents: true }, 'DeleteDependents').finalizers, ['orphan']);
  assert.deepEqual(deletionFinalizers(['orphan'], { orphanDependents: false }, 'OrphanDependents').finalizers, []);
});

test('without a request policy, a finalizer the object has is kept, else the resource default applies', () => {
  assert.equal(deletionFinalizers(['foregroundDeletion'], {}, 'OrphanDependents').changed, false);
  assert.equal(deletionFinalizers(['orphan'], {}, 'DeleteDependents').changed, false);
  assert.deepEqual(deletionFinalizers([], {}, 'OrphanDependents').finalizers, ['orphan']);
  assert.deepEqual(deletionFinalizers([], {}, 'DeleteDependents'), { changed: false, finalizers: [] });
  assert.deepEqual(deletionFinalizers(['x'], { propagationPolicy: 'Orphan' }, 'Unsupported'), { changed: false, finalizers: ['x'] });
});

test('default policies per resource and version, as Kubernetes has them', () => {
  assert.equal(defaultGarbageCollectionPolicy(cm), 'DeleteDependents');
  assert.equal(defaultGarbageCollectionPolicy({ group: '', version: 'v1', resource: 'replicationcontrollers' }), 'OrphanDependents');
  assert.equal(defaultGarbageCollectionPolicy({ group: 'batch', version: 'v1', resource: 'jobs' }), 'OrphanDependents');
  assert.equal(defaultGarbageCollectionPolicy({ group: 'batch', version: 'v1', resource: 'cronjobs' }), 'DeleteDependents');
  assert.equal(defaultGarbageCollectionPolicy({ group: 'apps', version: 'v1', resource: 'deployments' }), 'DeleteDependents');
  assert.equal(defaultGarbageCollectionPolicy({ group: 'apps', version: 'v1beta2', resource: 'deployments' }), 'OrphanDependents');
});

test('a Job deleted without a policy is warned about, in kube-apiserver words', () => {
  const jobs = { group: 'batch', version: 'v1', resource: 'jobs' };
  assert.match(defaultPropagationWarning(jobs, {})!, /^child pods are preserved by default when jobs are deleted; set propagationPolicy=Background/);
  assert.equal(defaultPropagationWarning(jobs, { propagationPolicy: 'Orphan' }), undefined);
  assert.equal(defaultPropagationWarning(jobs, { orphanDependents: true }), undefined);
  assert.equal(defaultPropagationWarning(cm, {}), undefined);
});
