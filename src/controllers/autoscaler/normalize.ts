// From the replicas the metrics propose to the replicas the target gets, as the HPA controller
// normalizes them. Without spec.behavior: the highest recommendation of the downscale
// stabilization window (5 min), then min/max replicas and a scale-up limit of max(2×current, 4).
// With it: each direction's stabilization window (the lowest recent recommendation on the way
// up, the highest on the way down), then the scaling policies' rates over their periods, chosen
// by selectPolicy. Each path says, as AbleToScale and ScalingLimited conditions, what it did.

import type { AutoscalingV2HPAScalingRules, AutoscalingV2HorizontalPodAutoscalerBehavior } from '../../schema/generated/types.ts';

export interface Recommendation { replicas: number; at: number }
export interface ScaleEvent { change: number; at: number; outdated: boolean }

/** what the controller remembers of one autoscaler between syncs */
export interface AutoscalerMemory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export interface ConditionChange { status: 'True' | 'False'; reason: string; message: string }
export interface Normalized { replicas: number; ableToScale: ConditionChange; scalingLimited: ConditionChange }

export type Rules = Required<Pick<AutoscalingV2HPAScalingRules, 'policies' | 'selectPolicy'>> & { stabilizationWindowSeconds: number; tolerance?: unknown };

export const defaultDownscaleStabilizationMs = 5 * 60_000;

/** behavior with Kubernetes' defaults filled in (scale-down's window from the controller's setting) */
export function behaviorRules(b: AutoscalingV2HorizontalPodAutoscalerBehavior, downscaleWindowMs = defaultDownscaleStabilizationMs): { up: Rules; down: Rules } {
  const up = b.scaleUp ?? {}, down = b.scaleDown ?? {};
  return {
    up: {
      stabilizationWindowSeconds: up.stabilizationWindowSeconds ?? 0,
      selectPolicy: up.selectPolicy ?? 'Max',
      policies: up.policies ?? [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
      tolerance: up.tolerance,
    },
    down: {
      stabilizationWindowSeconds: down.stabilizationWindowSeconds ?? Math.round(downscaleWindowMs / 1000),
      selectPolicy: down.selectPolicy ?? 'Max',
      policies: down.policies ?? [{ type: 'Percent', value: 100, periodSeconds: 15 }],
      tolerance: down.tolerance,
    },
  };
}

const within = { status: 'False' as const, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const readyForNewScale = { status: 'True' as const, reason: 'ReadyForNewScale', message: 'recommended size matches current size' };

/** the path without behavior */
export function normalizeLegacy(mem: AutoscalerMemory, current: number, proposed: number, min: number, max: number, now: number, windowMs = defaultDownscaleStabilizationMs): Normalized {
  // the highest recommendation within the window; the oldest outside it makes room for this one
  let stabilized = proposed;
  let old = -1;
  mem.recommendations.forEach((r, i) => {
    if (r.at < now - windowMs) old = i;
    else if (r.replicas > stabilized) stabilized = r.replicas;
  });
  if (old >= 0) mem.recommendations[old] = { replicas: proposed, at: now }; else mem.recommendations.push({ replicas: proposed, at: now });
  const ableToScale = stabilized !== proposed
    ? { status: 'True' as const, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
    : readyForNewScale;

  const scaleUpLimit = Math.max(2 * current, 4);
  let maxAllowed: number, limited: ConditionChange;
  if (max > scaleUpLimit) { maxAllowed = scaleUpLimit; limited = { status: 'True', reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }; }
  else { maxAllowed = max; limited = { status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' }; }
  if (stabilized < min) return { replicas: min, ableToScale, scalingLimited: { status: 'True', reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' } };
  if (stabilized > maxAllowed) return { replicas: maxAllowed, ableToScale, scalingLimited: limited };
  return { replicas: stabilized, ableToScale, scalingLimited: within };
}

function changeWithin(events: ScaleEvent[], periodSeconds: number, now: number): number {
  let n = 0;
  for (const e of events) if (e.at > now - periodSeconds * 1000) n += e.change;
  return n;
}

// a period starts from the replicas before the changes made within it, either way
function scaleUpLimit(current: number, mem: AutoscalerMemory, rules: Rules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : 0;
  for (const p of rules.policies) {
    const start = current - changeWithin(mem.scaleUpEvents, p.periodSeconds, now) + changeWithin(mem.scaleDownEvents, p.periodSeconds, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

function scaleDownLimit(current: number, mem: AutoscalerMemory, rules: Rules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const p of rules.policies) {
    const start = current + changeWithin(mem.scaleDownEvents, p.periodSeconds, now) - changeWithin(mem.scaleUpEvents, p.periodSeconds, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

/** the path with behavior */
export function normalizeWithBehavior(mem: AutoscalerMemory, rules: { up: Rules; down: Rules }, current: number, proposed: number, min: number, max: number, now: number): Normalized {
  const up = proposed >= current;
  const window = (up ? rules.up : rules.down).stabilizationWindowSeconds;
  const better = up ? Math.min : Math.max;
  const obsoleteBefore = now - Math.max(rules.up.stabilizationWindowSeconds, rules.down.stabilizationWindowSeconds) * 1000;
  let stabilized = proposed;
  let old = -1;
  mem.recommendations.forEach((r, i) => {
    if (r.at > now - window * 1000) stabilized = better(r.replicas, stabilized);
    if (r.at < obsoleteBefore) old = i;
  });
  if (old >= 0) mem.recommendations[old] = { replicas: proposed, at: now }; else mem.recommendations.push({ replicas: proposed, at: now });
  const ableToScale: ConditionChange = stabilized === proposed ? readyForNewScale : up
    ? { status: 'True', reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };

  if (stabilized > current) {
    const limit = Math.max(scaleUpLimit(current, mem, rules.up, now), current);
    const [allowed, limited] = max > limit
      ? [limit, { status: 'True' as const, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }]
      : [max, { status: 'True' as const, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' }];
    if (stabilized > allowed) return { replicas: allowed, ableToScale, scalingLimited: limited };
  } else if (stabilized < current) {
    const limit = Math.min(scaleDownLimit(current, mem, rules.down, now), current);
    const [allowed, limited] = min < limit
      ? [limit, { status: 'True' as const, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' }]
      : [min, { status: 'True' as const, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' }];
    if (stabilized < allowed) return { replicas: allowed, ableToScale, scalingLimited: limited };
  }
  return { replicas: stabilized, ableToScale, scalingLimited: within };
}

/** remembers a rescale for the rate policies, reusing an entry older than the longest period */
export function recordScaleEvent(mem: AutoscalerMemory, rules: { up: Rules; down: Rules }, from: number, to: number, now: number): void {
  const upward = to > from;
  const events = upward ? mem.scaleUpEvents : mem.scaleDownEvents;
  const longest = Math.max(0, ...(upward ? rules.up : rules.down).policies.map(p => p.periodSeconds));
  for (const e of events) if (e.at < now - longest * 1000) e.outdated = true;
  const event = { change: Math.abs(to - from), at: now, outdated: false };
  const reuse = events.reduce((found, e, i) => (e.outdated ? i : found), -1);
  if (reuse >= 0) events[reuse] = event; else events.push(event);
}
