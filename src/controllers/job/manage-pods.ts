// Which pods a Job needs created or deleted now: the decisions of the job controller's
// manageJob, as data. Suspended jobs lose their active pods; surplus pods go least advanced
// first (for Indexed jobs, duplicates and pods without a valid index before anything else);
// missing pods are created after the failure back-off, for Indexed jobs at the first pending
// indexes, each index waiting out its own back-off with backoffLimitPerIndex.

import { remainingBackoffMs, remainingIndexBackoffMs, type BackoffRecord } from './backoff.ts';
import { firstPendingIndexes, mergeIntervals, withIndexes, type Intervals } from './indexes.ts';
import { byDeletionPreference, completionIndex, hasBackoffLimitPerIndex, isIndexed, isTerminating, onlyReplaceFailedPods, type Job, type Pod } from './pods.ts';

/** at most this many pods are created or deleted in one sync, as Kubernetes caps it */
export const maxPodChangesPerSync = 500;

export interface ManageInput {
  job: Job;
  pods: Pod[];
  activePods: Pod[];
  succeeded: number;
  terminating: number;
  succeededIndexes: Intervals;
  failedIndexes?: Intervals;
  /** per index, the failed pod whose finalizer stays until its replacement exists */
  delayedDeletion: Map<number, Pod>;
  backoff: BackoffRecord;
  now: number;
}

export type ManagePlan =
  | { kind: 'delete'; pods: Pod[] }
  | { kind: 'create'; indexes: Array<number | undefined> }
  | { kind: 'wait'; ms: number }
  | { kind: 'none' };

/** surplus active pods: for Indexed jobs every pod without a valid index and all but one per index first */
export function activePodsForRemoval(job: Job, pods: Pod[], atLeast: number): Pod[] {
  const rm: Pod[] = [];
  let left = pods;
  if (isIndexed(job)) {
    const completions = job.spec.completions ?? 0;
    left = [];
    const byIndex = new Map<number, Pod[]>();
    for (const p of pods) {
      const ix = completionIndex(p);
      if (ix < 0 || ix >= completions) { rm.push(p); continue; }
      byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
    }
    for (const group of byIndex.values()) {
      const sorted = [...group].sort(byDeletionPreference);
      rm.push(...sorted.slice(0, -1));
      left.push(sorted[sorted.length - 1]!);
    }
  }
  if (rm.length < atLeast) rm.push(...[...left].sort(byDeletionPreference).slice(0, atLeast - rm.length));
  return rm;
}

export function planPodChanges(m: ManageInput): ManagePlan {
  const { job, activePods } = m;
  const active = activePods.length;
  if (job.spec.suspend) {
    const pods = activePodsForRemoval(job, activePods, active);
    return pods.length ? { kind: 'delete', pods } : { kind: 'none' };
  }
  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  let want: number;
  if (completions === undefined || completions === null) want = m.succeeded > 0 ? active : parallelism;
  else want = Math.max(0, Math.min(completions - m.succeeded, parallelism));

  const surplus = activePodsForRemoval(job, activePods, Math.max(0, active - want)).slice(0, maxPodChangesPerSync);
  if (surplus.length) return { kind: 'delete', pods: surplus };

  const terminating = onlyReplaceFailedPods(job) ? m.terminating : 0;
  let diff = Math.min(want - terminating - active, maxPodChangesPerSync);
  if (diff <= 0) return { kind: 'none' };
  if (!hasBackoffLimitPerIndex(job)) {
    const wait = remainingBackoffMs(m.backoff.failuresAfterLastSuccess, m.backoff.lastFailureTime, m.now);
    if (wait > 0) return { kind: 'wait', ms: wait };
  }
  if (!isIndexed(job)) return { kind: 'create', indexes: Array.from({ length: diff }, () => undefined) };

  let covered = withIndexes(m.succeededIndexes, activePods.map(completionIndex).filter(i => i >= 0));
  if (onlyReplaceFailedPods(job)) covered = withIndexes(covered, m.pods.filter(isTerminating).map(completionIndex).filter(i => i >= 0));
  if (m.failedIndexes) covered = mergeIntervals(covered, m.failedIndexes);
  let indexes = firstPendingIndexes(covered, diff, completions ?? 0);
  if (hasBackoffLimitPerIndex(job)) {
    const waits = indexes.map(ix => remainingIndexBackoffMs(m.delayedDeletion.get(ix), m.now));
    const ready = indexes.filter((_, i) => waits[i] === 0);
    if (ready.length === 0 && indexes.length) return { kind: 'wait', ms: Math.min(...waits) };
    indexes = ready;
  }
  diff = indexes.length;
  return diff ? { kind: 'create', indexes } : { kind: 'none' };
}
