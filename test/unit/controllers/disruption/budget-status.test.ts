import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countHealthy, disruptedPods, expectedAndDesired, failSafeStatus, needsScale, nextStatus, scaledValue, type Budget } from '../../../../src/controllers/disruption/budget-status.ts';
import { goLabelSelector } from '../../../../src/controllers/disruption/go-selector-string.ts';
import { pod } from '../endpoints/fixtures.ts';

const budget = (spec: NonNullable<Budget['spec']>, status?: Budget['status'], generation = 1): Budget => ({ metadata: { name: 'b', namespace: 'ns', generation }, spec, status });

test('percentages round up; strings that are not percentages are refused in apimachinery\'s words', () => {
  assert.equal(scaledValue(2, 10), 2);
  assert.equal(scaledValue('50%', 3), 2);
  assert.equal(scaledValue('10%', 1), 1);
  assert.equal(scaledValue('0%', 5), 0);
  assert.throws(() => scaledValue('5', 10), /^Error: invalid value for IntOrString: invalid type: string is not a percentage$/);
});

test('expected and desired: an int minAvailable counts the pods found; percentages and maxUnavailable the controllers\' scale', () => {
  assert.equal(needsScale(budget({ minAvailable: 2 })), false);
  assert.equal(needsScale(budget({ minAvailable: '50%' })), true);
  assert.equal(needsScale(budget({ maxUnavailable: 1 })), true);
  assert.deepEqual(expectedAndDesired(budget({ minAvailable: 2 }), 3, 0), { expectedCount: 3, desiredHealthy: 2 });
  assert.deepEqual(expectedAndDesired(budget({ minAvailable: '50%' }), 3, 5), { expectedCount: 5, desiredHealthy: 3 });
  assert.deepEqual(expectedAndDesired(budget({ maxUnavailable: 1 }), 3, 4), { expectedCount: 4, desiredHealthy: 3 });
  assert.deepEqual(expectedAndDesired(budget({ maxUnavailable: '30%' }), 3, 4), { expectedCount: 4, desiredHealthy: 2 });
  assert.deepEqual(expectedAndDesired(budget({ maxUnavailable: 9 }), 3, 4), { expectedCount: 4, desiredHealthy: 0 });
});

test('healthy pods are ready ones not being deleted nor recently evicted; eviction entries run out after two minutes', () => {
  const now = Date.parse('2026-01-01T00:10:00Z');
  const pods = [pod('a', { ip: '1.1.1.1' }), pod('b', { ip: '1.1.1.2' }), pod('c', { ip: '1.1.1.3', ready: false }), pod('d', { ip: '1.1.1.4', deleting: true })];
  const d = disruptedPods(pods, { a: '2026-01-01T00:09:00Z', b: '2026-01-01T00:07:00Z', d: '2026-01-01T00:09:30Z', gone: '2026-01-01T00:09:30Z' }, now);
  assert.deepEqual(d.map, { a: '2026-01-01T00:09:00Z' });
  assert.equal(d.recheckAt, Date.parse('2026-01-01T00:11:00Z'));
  assert.equal(countHealthy(pods, d.map), 1);
  assert.equal(countHealthy(pods, {}), 2);
});

test('the status and its DisruptionAllowed condition; an unchanged status is not written again', () => {
  const now = '2026-01-01T00:00:00Z';
  const pdb = budget({ minAvailable: 2 });
  const s = nextStatus(pdb, { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3, disrupted: {} }, now)!;
  assert.deepEqual(s, {
    currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1, expectedPods: 3, observedGeneration: 1,
    conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: now }],
  });
  assert.equal(nextStatus({ ...pdb, status: s }, { currentHealthy: 3, desiredHealthy: 2, expectedCount: 3, disrupted: {} }, '2026-01-01T00:05:00Z'), undefined);
  const down = nextStatus({ ...pdb, status: s }, { currentHealthy: 2, desiredHealthy: 2, expectedCount: 3, disrupted: {} }, '2026-01-01T00:05:00Z')!;
  assert.equal(down.disruptionsAllowed, 0);
  assert.deepEqual(down.conditions, [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:05:00Z' }]);
  // nothing expected: nothing may be disrupted, however many are healthy
  assert.equal(nextStatus(pdb, { currentHealthy: 3, desiredHealthy: 0, expectedCount: 0, disrupted: {} }, now)!.disruptionsAllowed, 0);

  const failed = failSafeStatus({ ...pdb, status: s }, 'found no controllers for pod "a"', '2026-01-01T00:06:00Z');
  assert.equal(failed.disruptionsAllowed, 0);
  assert.equal(failed.currentHealthy, 3);
  assert.deepEqual(failed.conditions, [{ type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "a"', observedGeneration: 1, lastTransitionTime: '2026-01-01T00:06:00Z' }]);
});

test('the selector in an UnmanagedPods event reads as Go prints it', () => {
  assert.equal(goLabelSelector({ matchLabels: { b: '2', a: '1' } }), '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{},}');
  assert.equal(goLabelSelector({ matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] }), '&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}');
});
