// What the job controller reads from its pods: the tracking finalizer, the completion index,
// whether a pod is active, terminating, ready, failed as the job counts failures, when it
// finished, and the order in which surplus pods are deleted.

import type { CoreV1Pod } from '../../schema/generated/types.ts';
import type { BatchV1Job } from '../../schema/generated/types.ts';

export type Pod = CoreV1Pod & { metadata: NonNullable<CoreV1Pod['metadata']> };
export type Job = BatchV1Job & { metadata: NonNullable<BatchV1Job['metadata']>; spec: NonNullable<BatchV1Job['spec']> };

export const trackingFinalizer = 'batch.kubernetes.io/job-tracking';
export const completionIndexKey = 'batch.kubernetes.io/job-completion-index';
export const indexFailureCountKey = 'batch.kubernetes.io/job-index-failure-count';
export const indexIgnoredFailureCountKey = 'batch.kubernetes.io/job-index-ignored-failure-count';

export const hasTrackingFinalizer = (p: Pod) => (p.metadata.finalizers ?? []).includes(trackingFinalizer);
export const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
export const isActive = (p: Pod) => !isTerminal(p) && !p.metadata.deletionTimestamp;
export const isTerminating = (p: Pod) => !isTerminal(p) && !!p.metadata.deletionTimestamp;
export const isReady = (p: Pod) => (p.status?.conditions ?? []).some(c => c.type === 'Ready' && c.status === 'True');

export const isIndexed = (job: Job) => job.spec.completionMode === 'Indexed';
export const hasBackoffLimitPerIndex = (job: Job) => job.spec.backoffLimitPerIndex !== undefined && job.spec.backoffLimitPerIndex !== null;
/** pods are replaced only once they have failed (not while terminating) */
export const onlyReplaceFailedPods = (job: Job) => job.spec.podReplacementPolicy === 'Failed' || !!job.spec.podFailurePolicy;

/** the pod's completion index, or -1 */
export function completionIndex(p: Pod): number {
  const v = p.metadata.annotations?.[completionIndexKey];
  if (v === undefined || !/^\d+$/.test(v)) return -1;
  return Number(v);
}

/** a failed pod, or (unless only failed pods are replaced) one deleted before it succeeded */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return !!p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded';
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : NaN);

/** when the pod finished: its last container's end, its Ready=False change, its deletion, or its creation */
export function finishedTime(p: Pod): number {
  const statuses = p.status?.containerStatuses ?? [];
  let latest: number | undefined;
  for (const s of statuses) {
    const t = ms(s.state?.terminated?.finishedAt);
    if (!Number.isFinite(t)) { latest = undefined; break; }
    latest = latest === undefined || t > latest ? t : latest;
  }
  if (statuses.length && latest !== undefined) return latest;
  const ready = (p.status?.conditions ?? []).find(c => c.type === 'Ready');
  if (ready?.status === 'False' && Number.isFinite(ms(ready.lastTransitionTime))) return ms(ready.lastTransitionTime);
  if (p.metadata.deletionTimestamp) return ms(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return ms(p.metadata.creationTimestamp) || 0;
}

function restarts(p: Pod): number {
  return (p.status?.containerStatuses ?? []).reduce((n, s) => Math.max(n, s.restartCount ?? 0), 0);
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** pods sorted so the least advanced come first, as ReplicaSets and Jobs pick pods to delete */
export function byDeletionPreference(a: Pod, b: Pod): number {
  const unassigned = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  if (unassigned(a) !== unassigned(b)) return unassigned(a) - unassigned(b);
  const pa = phaseRank[a.status?.phase ?? 'Pending'] ?? 0, pb = phaseRank[b.status?.phase ?? 'Pending'] ?? 0;
  if (pa !== pb) return pa - pb;
  if (isReady(a) !== isReady(b)) return isReady(a) ? 1 : -1;
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return (ms(b.metadata.creationTimestamp) || 0) - (ms(a.metadata.creationTimestamp) || 0);
}

/**
 * A pod as the job controller keeps it: who it is, its labels, annotations, owners and
 * finalizers, its node, and for its status the phase, conditions and container states. The
 * containers' specs and the field history, most of a pod's size, are never read here.
 */
export function jobPodView(p: Pod): Pod {
  const { managedFields: _unused, ...metadata } = p.metadata;
  const st = p.status;
  return {
    metadata,
    spec: { nodeName: p.spec?.nodeName, containers: [] },
    status: st && { phase: st.phase, conditions: st.conditions, containerStatuses: st.containerStatuses, initContainerStatuses: st.initContainerStatuses },
  };
}
