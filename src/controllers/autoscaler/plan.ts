// One autoscaler sync's decisions once the target's scale is known: the replicas its metrics
// propose (the highest of the valid ones), bounded by min and max replicas and normalized with or
// without behavior, the conditions that say why, the events to record, and whether to rescale.
// Failing metrics make ScalingActive False with the first failure's reason, and hold the scale.

import { matchesLabels, parseLabelSelector } from '../../api/selectors/label.ts';
import { parseQuantity } from '../../api/quantity.ts';
import type { AutoscalingV2HorizontalPodAutoscaler, AutoscalingV2MetricStatus } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';
import type { Pod } from '../endpoints/pod-endpoint.ts';
import { setHpaCondition, type HpaCondition } from './hpa-conditions.ts';
import { metricReplicas, type MetricsRead } from './metric-replicas.ts';
import { behaviorRules, normalizeLegacy, normalizeWithBehavior, type AutoscalerMemory } from './normalize.ts';
import { defaultCalculatorSettings, defaultTolerance } from './replica-calculator.ts';

export type Hpa = ServedInNamespace<AutoscalingV2HorizontalPodAutoscaler>;

export interface HpaEvent { type: 'Normal' | 'Warning'; reason: string; message: string }

export interface PlanInput {
  hpa: Hpa;
  scale: { replicas: number; selector?: string };
  /** the pods of the autoscaler's namespace; the plan selects the target's by its scale's selector */
  pods: Pod[];
  metrics: MetricsRead;
  memory: AutoscalerMemory;
  now: number;
  settings?: { downscaleStabilizationMs?: number; tolerance?: number; cpuInitializationMs?: number; initialReadinessDelayMs?: number };
}

export interface Plan {
  conditions: HpaCondition[];
  desiredReplicas: number;
  rescale: boolean;
  rescaleReason: string;
  /** undefined: keep the status's current metrics */
  currentMetrics?: AutoscalingV2MetricStatus[];
  events: HpaEvent[];
  /** why the sync failed, when it did (the status is still written) */
  error?: string;
}

const rfc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function planAutoscaling(input: PlanInput): Plan {
  const { hpa, scale, now } = input;
  const at = rfc(now);
  const events: HpaEvent[] = [];
  let conditions = setHpaCondition(hpa.status?.conditions ?? [], 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale', at);
  const set = (type: string, status: string, reason: string, message: string) => { conditions = setHpaCondition(conditions, type, status, reason, message, at); };
  const current = scale.replicas;
  const min = hpa.spec?.minReplicas ?? 1;
  const max = hpa.spec?.maxReplicas ?? min;
  const base = { events, rescale: false, rescaleReason: '' };

  if (current === 0 && min !== 0) {
    set('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    return { ...base, conditions, desiredReplicas: 0, currentMetrics: [] };
  }
  if (current > max) return { ...base, conditions, desiredReplicas: max, rescale: true, rescaleReason: 'Current number of replicas above Spec.MaxReplicas', currentMetrics: [] };
  if (current < min) return { ...base, conditions, desiredReplicas: min, rescale: true, rescaleReason: 'Current number of replicas below Spec.MinReplicas', currentMetrics: [] };

  // the metrics' proposals
  const failure = (error: string): Plan => {
    events.push({ type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: error });
    return { ...base, conditions, desiredReplicas: hpa.status?.desiredReplicas ?? 0, error };
  };
  if (!scale.selector) {
    events.push({ type: 'Warning', reason: 'SelectorRequired', message: 'selector is required' });
    set('ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale is missing a selector');
    return failure('selector is required');
  }
  let selector;
  try { selector = parseLabelSelector(scale.selector); } catch (err) {
    const msg = `couldn't convert selector into a corresponding internal selector object: ${(err as Error).message}`;
    events.push({ type: 'Warning', reason: 'InvalidSelector', message: msg });
    set('ScalingActive', 'False', 'InvalidSelector', msg);
    return failure(msg);
  }
  const pods = input.pods.filter(p => p.metadata.namespace === hpa.metadata.namespace && matchesLabels(selector, p.metadata.labels));
  const behavior = hpa.spec?.behavior;
  const tolerance = input.settings?.tolerance ?? defaultTolerance;
  const toleranceOf = (q: unknown) => (q === undefined ? tolerance : parseQuantity(q) ?? tolerance);
  const settings = {
    ...defaultCalculatorSettings, ...input.settings, now,
    tolerance: { up: toleranceOf(behavior?.scaleUp?.tolerance), down: toleranceOf(behavior?.scaleDown?.tolerance) },
  };
  const specs = hpa.spec?.metrics ?? [];
  const statuses: AutoscalingV2MetricStatus[] = [];
  let proposed = 0, proposedBy = '';
  let firstFailure: { reason: string; error: string } | undefined;
  let invalid = 0;
  for (const spec of specs) {
    const out = metricReplicas(spec, { current, pods, metrics: input.metrics, namespace: hpa.metadata.namespace, settings });
    statuses.push(out.status);
    if (out.failure) {
      events.push({ type: 'Warning', reason: out.failure.reason, message: out.failure.error });
      firstFailure ??= out.failure;
      invalid++;
      continue;
    }
    if (proposed === 0 || out.replicas! > proposed) { proposed = out.replicas!; proposedBy = out.name!; }
  }
  if (specs.length && (invalid >= specs.length || (invalid > 0 && proposed < current))) {
    set('ScalingActive', 'False', firstFailure!.reason, `the HPA was unable to compute the replica count: ${firstFailure!.error}`);
    const plan = failure(`invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstFailure!.error}`);
    return { ...plan, currentMetrics: statuses };
  }
  set('ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${proposedBy}`);

  let desired = 0, rescaleReason = '';
  if (proposed > desired) desired = proposed;
  if (desired > current) rescaleReason = `${proposedBy} above target`;
  if (desired < current) rescaleReason = 'All metrics below target';
  const normalized = behavior
    ? normalizeWithBehavior(input.memory, behaviorRules(behavior, input.settings?.downscaleStabilizationMs), current, desired, min, max, now)
    : normalizeLegacy(input.memory, current, desired, min, max, now, input.settings?.downscaleStabilizationMs);
  set('AbleToScale', normalized.ableToScale.status, normalized.ableToScale.reason, normalized.ableToScale.message);
  set('ScalingLimited', normalized.scalingLimited.status, normalized.scalingLimited.reason, normalized.scalingLimited.message);
  return { events, conditions, desiredReplicas: normalized.replicas, rescale: normalized.replicas !== current, rescaleReason, currentMetrics: statuses };
}
