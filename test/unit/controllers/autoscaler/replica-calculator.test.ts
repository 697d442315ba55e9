import { test } from 'node:test';
import assert from 'node:assert/strict';
import { milli } from '../../../../src/controllers/autoscaler/metric-replicas.ts';
import { defaultCalculatorSettings, resourceReplicas, type PodMetrics } from '../../../../src/controllers/autoscaler/replica-calculator.ts';
import { hpaPod, t0 } from './fixtures.ts';

const settings = { ...defaultCalculatorSettings, now: t0, tolerance: { up: 0.1, down: 0.1 } };
const usage = (values: Record<string, number>): PodMetrics => new Map(Object.entries(values).map(([k, v]) => [k, { value: v, timestamp: t0 - 10_000, windowMs: 15_000 }]));

test('utilization: ceil(ratio × ready pods); within the tolerance nothing changes', () => {
  const pods = ['a', 'b', 'c'].map(n => hpaPod(n, { cpu: '100m' }));
  // 90% of request against a 50% target: 1.8 × 3 = 5.4 → 6
  assert.deepEqual(resourceReplicas({ current: 3, pods, metrics: usage({ a: 90, b: 90, c: 90 }), resource: 'cpu', settings, targetUtilization: 50, milli }), { replicas: 6, utilization: 90, rawAverage: 90 });
  assert.equal(resourceReplicas({ current: 3, pods, metrics: usage({ a: 54, b: 54, c: 54 }), resource: 'cpu', settings, targetUtilization: 50, milli }).replicas, 3, '8% over is within 10%');
  assert.equal(resourceReplicas({ current: 3, pods, metrics: usage({ a: 10, b: 10, c: 10 }), resource: 'cpu', settings, targetUtilization: 50, milli }).replicas, 1);
  // a configured tolerance, one way only
  assert.equal(resourceReplicas({ current: 3, pods, metrics: usage({ a: 54, b: 54, c: 54 }), resource: 'cpu', settings: { ...settings, tolerance: { up: 0.05, down: 0.1 } }, targetUtilization: 50, milli }).replicas, 4);
});

test('missing samples count as their whole request on the way down and as nothing on the way up; a direction change cancels', () => {
  const pods = ['a', 'b', 'c', 'd'].map(n => hpaPod(n, { cpu: '100m' }));
  // up: a,b at 100% → ratio 2; with c,d at 0: ratio 1 → within tolerance: no change
  assert.equal(resourceReplicas({ current: 4, pods, metrics: usage({ a: 100, b: 100 }), resource: 'cpu', settings, targetUtilization: 50, milli }).replicas, 4);
  // down: a,b at 10% → ratio 0.2; with c,d at 100%: (10+10+100+100)/400 = 55% → ratio 1.1 → a change of direction: no change
  assert.equal(resourceReplicas({ current: 4, pods, metrics: usage({ a: 10, b: 10 }), resource: 'cpu', settings, targetUtilization: 50, milli }).replicas, 4);
  // down: a,b at 0% with c,d counted at 100%: 50% → ratio 1.0: no change; with a 80% target: 0.625 × 4 → 3
  assert.equal(resourceReplicas({ current: 4, pods, metrics: usage({ a: 0, b: 0 }), resource: 'cpu', settings, targetUtilization: 80, milli }).replicas, 3);
});

test('CPU samples of pods that are pending or not ready yet are ignored; all ignored means no answer', () => {
  const pods = [hpaPod('a', { cpu: '100m' }), hpaPod('b', { cpu: '100m', phase: 'Pending' }), hpaPod('c', { cpu: '100m', ready: false, started: t0 - 60_000, readySince: t0 - 60_000 })];
  // only a counts: 100% vs 50% → ratio 2; b and c then count as 0 → (100+0+0)/300 = 33% → ratio .66 → direction change → keep
  assert.equal(resourceReplicas({ current: 3, pods, metrics: usage({ a: 100, b: 100, c: 100 }), resource: 'cpu', settings, targetUtilization: 50, milli }).replicas, 3);
  assert.throws(() => resourceReplicas({ current: 1, pods: [pods[1]!], metrics: usage({ b: 100 }), resource: 'cpu', settings, targetUtilization: 50, milli }), /^Error: did not receive metrics for any ready pods$/);
  assert.throws(() => resourceReplicas({ current: 1, pods: [], metrics: usage({}), resource: 'cpu', settings, targetUtilization: 50, milli }), /^Error: no pods returned by selector while calculating replica count$/);
});

test('a pod without a request for the resource fails the utilization metric in Kubernetes\' words', () => {
  assert.throws(() => resourceReplicas({ current: 1, pods: [hpaPod('a', { memory: '64Mi' })], metrics: usage({ a: 10 }), resource: 'cpu', settings, targetUtilization: 50, milli }), /^Error: missing request for cpu in container c of Pod a$/);
});

test('average value targets compare the average usage, requests not needed', () => {
  const pods = ['a', 'b'].map(n => hpaPod(n));
  const mi = 1024 * 1024 * 1000;
  const r = resourceReplicas({ current: 2, pods, metrics: usage({ a: 300 * mi, b: 100 * mi }), resource: 'memory', settings, targetAverageMilli: milli('100Mi'), milli });
  assert.deepEqual(r, { replicas: 4, utilization: undefined, rawAverage: 200 * mi });
});
