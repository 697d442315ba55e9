import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ttlDecision } from '../../../src/controllers/ttl-after-finished.ts';

const job = (ttl: number | undefined, conditions: Array<{ type: string; status: string; lastTransitionTime: string }>, deleting = false) =>
  ({ metadata: { name: 'j', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, spec: { ttlSecondsAfterFinished: ttl, template: {} }, status: { conditions } }) as any;

test('a finished job with a TTL is deleted that long after its Complete or Failed transition', () => {
  const done = [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }, { type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }];
  const at = (iso: string) => Date.parse(iso);
  assert.deepEqual(ttlDecision(job(60, done), at('2026-01-01T00:00:40Z')), { afterMs: 30_000 });
  assert.equal(ttlDecision(job(60, done), at('2026-01-01T00:01:10Z')), 'delete');
  assert.equal(ttlDecision(job(0, [{ type: 'Failed', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }]), at('2026-01-01T00:00:10Z')), 'delete');
  assert.equal(ttlDecision(job(undefined, done), at('2027-01-01T00:00:00Z')), 'keep', 'no TTL, kept for ever');
  assert.equal(ttlDecision(job(0, [{ type: 'FailureTarget', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }]), at('2027-01-01T00:00:00Z')), 'keep', 'not finished yet');
  assert.equal(ttlDecision(job(0, done, true), at('2027-01-01T00:00:00Z')), 'keep', 'already being deleted');
});

test('far deadlines are looked at again after a day, within what Node timers hold', async () => {
  const { requeueDelay } = await import('../../../src/controllers/requeue-delay.ts');
  assert.equal(requeueDelay(30 * 24 * 3600_000), 24 * 3600_000);
  assert.equal(requeueDelay(-5), 0);
  assert.equal(requeueDelay(1500), 1500);
});
