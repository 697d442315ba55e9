import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviorRules, normalizeLegacy, normalizeWithBehavior, recordScaleEvent, type AutoscalerMemory } from '../../../../src/controllers/autoscaler/normalize.ts';
import { planAutoscaling } from '../../../../src/controllers/autoscaler/plan.ts';
import { autoscaler, hpaPod, sample, t0 } from './fixtures.ts';

const fresh = (current = 1): AutoscalerMemory => ({ recommendations: [{ replicas: current, at: t0 - 1000 }], scaleUpEvents: [], scaleDownEvents: [] });
const cond = (p: { conditions: Array<{ type: string; status: string; reason?: string; message?: string }> }) => p.conditions.map(c => [c.type, c.status, c.reason, c.message]);

test('without metrics: ScalingActive False, FailedGetResourceMetric, upstream\'s message; the scale is held', () => {
  const plan = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 2, selector: 'app=web' }, pods: [hpaPod('a', { cpu: '100m' })], metrics: { items: [] }, memory: fresh(2), now: t0 });
  assert.deepEqual(cond(plan), [
    ['AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale'],
    ['ScalingActive', 'False', 'FailedGetResourceMetric', 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API'],
  ]);
  assert.equal(plan.rescale, false);
  assert.equal(plan.error, 'invalid metrics (1 invalid out of 1), first error is: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API');
  assert.deepEqual(plan.events.map(e => e.reason), ['FailedGetResourceMetric', 'FailedComputeMetricsReplicas']);
  assert.deepEqual(plan.currentMetrics, [{ type: '' }]);
  const unreachable = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 2, selector: 'app=web' }, pods: [], metrics: { error: 'the server could not find the requested resource (get pods.metrics.k8s.io)' }, memory: fresh(2), now: t0 });
  assert.match(unreachable.conditions[1]!.message!, /unable to fetch metrics from resource metrics API: the server could not find the requested resource \(get pods\.metrics\.k8s\.io\)$/);
});

test('CPU over target scales up, named in the condition; status metrics carry utilization and average', () => {
  const pods = ['a', 'b'].map(n => hpaPod(n, { cpu: '200m' }));
  const plan = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 2, selector: 'app=web' }, pods, metrics: { items: [sample('a', { cpu: '300m' }), sample('b', { cpu: '300m' })] }, memory: fresh(2), now: t0 });
  // 150% of request against 50%: 3 × 2 = 6, but without behavior a step at most doubles (4 at least)
  assert.equal(plan.desiredReplicas, 4);
  assert.equal(plan.rescale, true);
  assert.equal(plan.rescaleReason, 'cpu resource utilization (percentage of request) above target');
  assert.deepEqual(plan.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 150, averageValue: '300m' } } }]);
  assert.deepEqual(cond(plan), [
    ['AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size'],
    ['ScalingActive', 'True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)'],
    ['ScalingLimited', 'True', 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'],
  ]);
  const calm = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 2, selector: 'app=web' }, pods, metrics: { items: [sample('a', { cpu: '100m' }), sample('b', { cpu: '110m' })] }, memory: fresh(2), now: t0 });
  assert.deepEqual([calm.rescale, calm.desiredReplicas, cond(calm)[2]], [false, 2, ['ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range']]);
});

test('min and max replicas bound the proposal; replicas out of range are brought back first; zero disables', () => {
  const pods = ['a', 'b'].map(n => hpaPod(n, { cpu: '100m' }));
  const busy = { items: [sample('a', { cpu: '500m' }), sample('b', { cpu: '500m' })] };
  const limited = planAutoscaling({ hpa: autoscaler({ maxReplicas: 3 }), scale: { replicas: 2, selector: 'app=web' }, pods, metrics: busy, memory: fresh(2), now: t0 });
  assert.equal(limited.desiredReplicas, 3);
  assert.deepEqual(cond(limited)[2], ['ScalingLimited', 'True', 'TooManyReplicas', 'the desired replica count is more than the maximum replica count']);
  const over = planAutoscaling({ hpa: autoscaler({ maxReplicas: 3 }), scale: { replicas: 5, selector: 'app=web' }, pods, metrics: busy, memory: fresh(5), now: t0 });
  assert.deepEqual([over.desiredReplicas, over.rescaleReason], [3, 'Current number of replicas above Spec.MaxReplicas']);
  const off = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 0, selector: 'app=web' }, pods, metrics: busy, memory: fresh(0), now: t0 });
  assert.deepEqual([off.rescale, cond(off)[1]], [false, ['ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero']]);
  const noSelector = planAutoscaling({ hpa: autoscaler(), scale: { replicas: 1 }, pods, metrics: busy, memory: fresh(1), now: t0 });
  assert.deepEqual(cond(noSelector)[1], ['ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale is missing a selector']);
});

test('without behavior: a scale-down waits for the highest recommendation of the last five minutes; scale-up at most doubles (4 at least)', () => {
  const mem: AutoscalerMemory = { recommendations: [{ replicas: 8, at: t0 - 60_000 }], scaleUpEvents: [], scaleDownEvents: [] };
  const n = normalizeLegacy(mem, 8, 2, 1, 10, t0);
  assert.deepEqual([n.replicas, n.ableToScale.reason], [8, 'ScaleDownStabilized']);
  const later = normalizeLegacy(mem, 8, 2, 1, 10, t0 + 6 * 60_000);
  assert.deepEqual([later.replicas, later.ableToScale.reason], [2, 'ReadyForNewScale']);
  const up = normalizeLegacy(fresh(1), 1, 9, 1, 10, t0);
  assert.deepEqual([up.replicas, up.scalingLimited.reason], [4, 'ScaleUpLimit']);
});

test('with behavior: policies limit the rate (Max of Pods and Percent by default), stabilization per direction, Disabled holds', () => {
  const rules = behaviorRules({});
  assert.deepEqual(rules.up, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }], tolerance: undefined });
  assert.equal(rules.down.stabilizationWindowSeconds, 300);
  const mem = fresh(2);
  const a = normalizeWithBehavior(mem, rules, 2, 20, 1, 50, t0);
  assert.deepEqual([a.replicas, a.scalingLimited.reason], [6, 'ScaleUpLimit'], 'max(2+4, 2×2)');
  recordScaleEvent(mem, rules, 2, 6, t0);
  // within the same 15 s period the budget already spent counts
  const b = normalizeWithBehavior(mem, rules, 6, 20, 1, 50, t0 + 5000);
  assert.equal(b.replicas, 6);
  const c = normalizeWithBehavior(mem, rules, 6, 20, 1, 50, t0 + 16_000);
  assert.equal(c.replicas, 12);
  // scale-down: one pod a minute, a minute's window
  const slow = behaviorRules({ scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } });
  const down = fresh(10);
  const d1 = normalizeWithBehavior(down, slow, 10, 2, 1, 50, t0 + 120_000);
  assert.deepEqual([d1.replicas, d1.scalingLimited.reason, d1.ableToScale.reason], [9, 'ScaleDownLimit', 'ReadyForNewScale']);
  // a higher recommendation within the window holds a lower one
  const d2 = normalizeWithBehavior(down, slow, 10, 1, 1, 50, t0 + 130_000);
  assert.deepEqual([d2.replicas, d2.ableToScale.reason], [9, 'ScaleDownStabilized']);
  recordScaleEvent(down, slow, 10, 9, t0 + 130_000);
  // the minute's pod is spent
  assert.equal(normalizeWithBehavior(down, slow, 9, 1, 1, 50, t0 + 140_000).replicas, 9);
  const disabled = behaviorRules({ scaleDown: { selectPolicy: 'Disabled' } });
  assert.equal(normalizeWithBehavior(fresh(5), disabled, 5, 1, 1, 10, t0 + 600_000).replicas, 5);
});
