// A PodDisruptionBudget's status as the disruption controller computes it: how many pods are
// expected (the pods themselves, or their controllers' scale when the budget is a percentage or
// maxUnavailable), how many must stay healthy, how many are, and so how many may be disrupted,
// with the DisruptionAllowed condition saying which way it went.

import type { PolicyV1PodDisruptionBudget, PolicyV1PodDisruptionBudgetStatus } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';
import { conditionPresent, setStatusCondition } from '../conditions.ts';
import { isPodReady, type Pod } from '../endpoints/pod-endpoint.ts';

export type Budget = ServedInNamespace<PolicyV1PodDisruptionBudget>;
export type BudgetStatus = PolicyV1PodDisruptionBudgetStatus;

/** how long an eviction's entry in status.disruptedPods holds a pod out of the healthy count */
export const disruptionTimeoutMs = 2 * 60_000;

export const conditionType = 'DisruptionAllowed';
export const reasons = { sufficient: 'SufficientPods', insufficient: 'InsufficientPods', syncFailed: 'SyncFailed' } as const;

/** an int or a percentage of total, percentages rounded up; errors in apimachinery's words */
export function scaledValue(v: number | string, total: number): number {
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  return Math.ceil((Number(digits) * total) / 100);
}

/** whether the budget is measured against its pods' controllers' scale (else against the pods found) */
export function needsScale(pdb: Budget): boolean {
  const s = pdb.spec ?? {};
  if (s.maxUnavailable !== undefined && s.maxUnavailable !== null) return true;
  return typeof s.minAvailable === 'string';
}

/** expectedPods and desiredHealthy; `scale` is the controllers' total replicas when needsScale */
export function expectedAndDesired(pdb: Budget, podCount: number, scale: number): { expectedCount: number; desiredHealthy: number } {
  const s = pdb.spec ?? {};
  if (s.maxUnavailable !== undefined && s.maxUnavailable !== null) {
    return { expectedCount: scale, desiredHealthy: Math.max(0, scale - scaledValue(s.maxUnavailable, scale)) };
  }
  if (typeof s.minAvailable === 'number') return { expectedCount: podCount, desiredHealthy: s.minAvailable };
  if (typeof s.minAvailable === 'string') return { expectedCount: scale, desiredHealthy: scaledValue(s.minAvailable, scale) };
  return { expectedCount: 0, desiredHealthy: 0 };
}

/**
 * status.disruptedPods kept for pods still there, not yet being deleted and evicted less than
 * the timeout ago; `recheckAt` is when the earliest kept entry runs out.
 */
export function disruptedPods(pods: Pod[], current: Record<string, string> | undefined, now: number): { map: Record<string, string>; recheckAt?: number } {
  const map: Record<string, string> = {};
  let recheckAt: number | undefined;
  if (!current) return { map };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = current[pod.metadata.name];
    if (!at) continue;
    const expires = Date.parse(at) + disruptionTimeoutMs;
    if (expires < now) continue;
    map[pod.metadata.name] = at;
    recheckAt = recheckAt === undefined ? expires : Math.min(recheckAt, expires);
  }
  return { map, recheckAt };
}

/** ready pods neither being deleted nor recently evicted */
export function countHealthy(pods: Pod[], disrupted: Record<string, string>): number {
  return pods.filter(p => !p.metadata.deletionTimestamp && !disrupted[p.metadata.name] && isPodReady(p)).length;
}

export interface Figures { currentHealthy: number; desiredHealthy: number; expectedCount: number; disrupted: Record<string, string> }

/** the new status, or undefined when the stored one already says all this */
export function nextStatus(pdb: Budget, f: Figures, now: string): BudgetStatus | undefined {
  let allowed = f.currentHealthy - f.desiredHealthy;
  if (f.expectedCount <= 0 || allowed <= 0) allowed = 0;
  const generation = pdb.metadata.generation ?? 0;
  const cond = allowed > 0
    ? { type: conditionType, status: 'True', reason: reasons.sufficient, message: '', observedGeneration: generation }
    : { type: conditionType, status: 'False', reason: reasons.insufficient, message: '', observedGeneration: generation };
  const s = pdb.status ?? {};
  const sameDisrupted = JSON.stringify(Object.entries(s.disruptedPods ?? {}).sort()) === JSON.stringify(Object.entries(f.disrupted).sort());
  if (s.currentHealthy === f.currentHealthy && s.desiredHealthy === f.desiredHealthy && s.expectedPods === f.expectedCount && s.disruptionsAllowed === allowed
    && sameDisrupted && s.observedGeneration === generation && conditionPresent(s.conditions, cond)) return undefined;
  const status: BudgetStatus = {
    currentHealthy: f.currentHealthy, desiredHealthy: f.desiredHealthy, disruptionsAllowed: allowed, expectedPods: f.expectedCount,
    observedGeneration: generation, conditions: setStatusCondition(s.conditions, cond, now),
  };
  if (Object.keys(f.disrupted).length) status.disruptedPods = f.disrupted;
  return status;
}

/** what a failed sync leaves: no disruptions allowed, and why (the status's other figures stay) */
export function failSafeStatus(pdb: Budget, message: string, now: string): BudgetStatus {
  const s = pdb.status ?? {};
  return {
    ...s,
    disruptionsAllowed: 0,
    conditions: setStatusCondition(s.conditions, { type: conditionType, status: 'False', reason: reasons.syncFailed, message, observedGeneration: s.observedGeneration ?? 0 }, now),
  };
}
