// What the workload controllers read from a pod's status: whether it counts (active), whether it
// is ready, and since when, which decides when it is available under minReadySeconds. Pure.

import type { CoreV1Pod } from '../schema/generated/types.ts';

/** a pod that counts toward replicas: not finished and not being deleted */
export function isPodActive(pod: CoreV1Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** a pod being deleted that has not finished (its containers may still be running) */
export function isPodTerminating(pod: CoreV1Pod): boolean {
  const phase = pod.status?.phase;
  return !!pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

function readyCondition(pod: CoreV1Pod) {
  return pod.status?.conditions?.find(c => c.type === 'Ready');
}

export function isPodReady(pod: CoreV1Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** when the pod last turned ready, in ms (undefined when not ready or never recorded) */
export function readySinceMs(pod: CoreV1Pod): number | undefined {
  const c = readyCondition(pod);
  if (c?.status !== 'True' || !c.lastTransitionTime) return undefined;
  return Date.parse(c.lastTransitionTime);
}

/**
 * Ready for longer than minReadySeconds. As Kubernetes compares it, the pod must have been ready
 * strictly longer than that, and a ready pod without a transition time is not yet available.
 */
export function isPodAvailable(pod: CoreV1Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = readySinceMs(pod);
  return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}

/** when a ready but not yet available pod becomes available (undefined when that does not apply) */
export function availableAtMs(pod: CoreV1Pod, minReadySeconds: number): number | undefined {
  const since = readySinceMs(pod);
  if (since === undefined || !minReadySeconds) return undefined;
  return since + minReadySeconds * 1000 + 1;
}

/** the earliest moment one of these pods turns available, for a controller to look again then */
export function nextAvailabilityMs(pods: CoreV1Pod[], minReadySeconds: number, nowMs: number): number | undefined {
  let next: number | undefined;
  for (const p of pods) {
    const at = availableAtMs(p, minReadySeconds);
    if (at !== undefined && at > nowMs && (next === undefined || at < next)) next = at;
  }
  return next;
}
