// The decisions of pods/eviction, without I/O: which PodDisruptionBudgets guard a pod, whether
// the pod may go without asking them, and what a budget says to one more disruption — with
// kube-apiserver's statuses and wording, which kubectl drain and client libraries read (a 429
// means "retry later", its DisruptionBudget cause is printed to the user).

import { forbidden, StatusError } from '../../api/status.ts';
import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import type { KubeObject } from '../../api/object.ts';

export interface EvictedPod extends KubeObject {
  status?: { phase?: string; conditions?: Array<{ type?: string; status?: string }> };
}

export interface BudgetCondition { type: string; status: string; reason: string; message: string; observedGeneration?: number; lastTransitionTime?: string }
export interface BudgetStatus {
  observedGeneration?: number;
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  disruptedPods?: Record<string, string>;
  conditions?: BudgetCondition[];
}
export interface Budget extends KubeObject {
  spec?: { selector?: unknown; unhealthyPodEvictionPolicy?: string };
  status?: BudgetStatus;
}

/** kube-apiserver refuses to add to a disruptedPods map this large (the controller is behind) */
export const maxDisruptedPods = 2000;

/**
 * Pods whose deletion disrupts nothing more: finished, not started (Pending), or already being
 * deleted. They are deleted without looking at any budget.
 */
export function canIgnoreBudgets(pod: EvictedPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/**
 * Whether the delete must be pinned to the resourceVersion the decision read, so that a pod
 * turning Ready in between is not deleted on a stale verdict (not needed for finished pods).
 */
export function pinsResourceVersion(pod: EvictedPod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp);
}

export function isReady(pod: EvictedPod): boolean {
  return (pod.status?.conditions ?? []).some(c => c.type === 'Ready' && c.status === 'True');
}

/** the budgets of the pod's namespace whose selector matches it; an empty or invalid selector matches nothing */
export function budgetsGuarding(pod: EvictedPod, budgets: Budget[]): Budget[] {
  return budgets.filter(b => {
    if (b.metadata.namespace !== pod.metadata.namespace) return false;
    let sel;
    try { sel = labelSelectorFromObject(b.spec?.selector); } catch { return false; }
    if (sel.empty || sel.nothing) return false;
    return matchesLabels(sel, pod.metadata.labels);
  });
}

/**
 * An unready pod is not counted as healthy, so deleting it takes nothing from the budget: it may
 * go without a decrement when the budget says AlwaysAllow, or (IfHealthyBudget, the default)
 * while the budget is met. Otherwise the budget must allow one more disruption.
 */
export function unhealthyMayGo(pod: EvictedPod, budget: Budget): boolean {
  if (isReady(pod)) return false;
  if (budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const s = budget.status ?? {};
  const desired = s.desiredHealthy ?? 0;
  return (s.currentHealthy ?? 0) >= desired && desired > 0;
}

const violates = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooManyRequests(cause: string, retryAfterSeconds: number): StatusError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) };
  const err = new StatusError(429, 'TooManyRequests', violates, details);
  if (retryAfterSeconds > 0) err.headers = { 'Retry-After': String(retryAfterSeconds) };
  return err;
}

/** the 429 for a budget the controller has not caught up with (or a delete that lost a race) */
export function budgetBeingProcessed(name: string): StatusError {
  return tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
}

/**
 * The budget's status after one more disruption of `podName`, or the refusal. `dryRun` checks
 * without recording the pod (the status is then not written).
 */
export function takeDisruption(budget: Budget, podName: string, now: string, dryRun: boolean): BudgetStatus {
  const s = budget.status ?? {};
  const name = budget.metadata.name ?? '';
  if ((s.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) throw budgetBeingProcessed(name);
  const allowed = s.disruptionsAllowed ?? 0;
  const resource = { group: 'policy', resource: 'poddisruptionbudget' };
  if (allowed < 0) throw forbidden(resource, name, 'pdb disruptions allowed is negative');
  if (Object.keys(s.disruptedPods ?? {}).length > maxDisruptedPods) {
    throw forbidden(resource, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    throw tooManyRequests(`The disruption budget ${name} needs ${s.desiredHealthy ?? 0} healthy pods and has ${s.currentHealthy ?? 0} currently`, 0);
  }
  const next: BudgetStatus = { ...s, disruptionsAllowed: allowed - 1 };
  // the last allowed disruption taken: the condition says so at once, as the controller would
  if (next.disruptionsAllowed === 0) next.conditions = insufficientPods(s.conditions ?? [], s.observedGeneration ?? 0, now);
  if (!dryRun) next.disruptedPods = { ...s.disruptedPods, [podName]: now };
  return next;
}

function insufficientPods(conditions: BudgetCondition[], generation: number, now: string): BudgetCondition[] {
  const old = conditions.find(c => c.type === 'DisruptionAllowed');
  const cond: BudgetCondition = {
    type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: old?.message ?? '', observedGeneration: generation,
    lastTransitionTime: old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : now,
  };
  return old ? conditions.map(c => (c === old ? cond : c)) : [...conditions, cond];
}

/** the DisruptionTarget condition an evicted pod gets before it is deleted */
export function disruptionTarget(now: string): Record<string, unknown> {
  return { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
}

/** the pod's conditions with `cond` set; the transition time kept when its status does not change */
export function withCondition(conditions: Array<Record<string, unknown>> | undefined, cond: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = conditions ?? [];
  const old = list.find(c => c.type === cond.type);
  if (!old) return [...list, cond];
  const merged = { ...old, ...cond, lastTransitionTime: old.status === cond.status ? old.lastTransitionTime : cond.lastTransitionTime };
  return list.map(c => (c === old ? merged : c));
}
