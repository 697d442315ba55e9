import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimPod } from '../../../../src/controllers/job/claim.ts';

const job = (deleting = false) => ({ metadata: { name: 'j', namespace: 'ns', uid: 'job-uid', ...(deleting ? { deletionTimestamp: 't' } : {}) }, spec: { selector: { matchLabels: { app: 'x' } }, template: {} } }) as any;
const pod = (labels: Record<string, string>, owner?: string, deleting = false) => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid', labels, ...(owner ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: owner, controller: true }] } : {}), ...(deleting ? { deletionTimestamp: 't' } : {}) },
}) as any;

test('a job keeps the pods it controls and selects, adopts orphans it selects, releases pods it no longer selects', () => {
  assert.equal(claimPod(job(), pod({ app: 'x' }, 'job-uid')), 'keep');
  assert.equal(claimPod(job(), pod({ app: 'x' })), 'adopt');
  assert.equal(claimPod(job(), pod({ app: 'y' }, 'job-uid')), 'release');
  assert.equal(claimPod(job(), pod({ app: 'x' }, 'other-uid')), 'ignore', 'another controller\'s pod');
  assert.equal(claimPod(job(), pod({ app: 'y' })), 'ignore');
  // nothing is adopted by or from something being deleted, and a deleting job releases nothing
  assert.equal(claimPod(job(true), pod({ app: 'x' })), 'ignore');
  assert.equal(claimPod(job(), pod({ app: 'x' }, undefined, true)), 'ignore');
  assert.equal(claimPod(job(true), pod({ app: 'y' }, 'job-uid')), 'keep');
});
