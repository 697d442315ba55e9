// The end of a Job sync, as the job controller orders it so that no pod is counted twice or
// lost: finished pods are first written into status.uncountedTerminatedPods, then their
// tracking finalizers are removed, then those without one move into the succeeded/failed
// counters; the interim FailureTarget/SuccessCriteriaMet turn into Failed/Complete only when
// nothing is left uncounted or terminating, with the events Kubernetes records.

import { conditionTrue, ensureCondition, findCondition, newCondition } from './conditions.ts';
import { formatIndexes, hasIndex, totalIndexes, withIndexes } from './indexes.ts';
import { matchPodFailurePolicy } from './policies.ts';
import { completionIndex, hasBackoffLimitPerIndex, hasTrackingFinalizer, isIndexed, isPodFailed, type Job, type Pod } from './pods.ts';
import { uidOf, validIndex, type Ctx, type JobEffects } from './sync-context.ts';

/** uncounted pod UIDs kept in status at most, so the status stays small */
export const maxUncountedPods = 500;

/** may the finalizer go: the job is ending, the pod succeeded, or it failed and no replacement waits on it */
function canRemoveFinalizer(c: Ctx, p: Pod, failed: boolean): boolean {
  if (c.job.metadata.deletionTimestamp || c.finished || p.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  if (hasBackoffLimitPerIndex(c.job)) {
    const ix = completionIndex(p);
    if (ix >= 0 && c.delayedDeletion.get(ix)?.metadata.uid === p.metadata.uid) return false;
  }
  return true;
}

/** moves uncounted pods whose finalizer is gone into the counters; returns whether anything moved */
function countRemoved(status: NonNullable<Job['status']>, withFinalizer: Set<string>): boolean {
  const u = status.uncountedTerminatedPods!;
  let changed = false;
  const keepS = (u.succeeded ?? []).filter(x => withFinalizer.has(x));
  if (keepS.length !== (u.succeeded ?? []).length) { status.succeeded = (status.succeeded ?? 0) + (u.succeeded!.length - keepS.length); u.succeeded = keepS; changed = true; }
  const keepF = (u.failed ?? []).filter(x => withFinalizer.has(x));
  if (keepF.length !== (u.failed ?? []).length) { status.failed = (status.failed ?? 0) + (u.failed!.length - keepF.length); u.failed = keepF; changed = true; }
  return changed;
}

/** the status as Go's encoder leaves it: empty uncounted lists and completedIndexes omitted */
function forWrite(job: Job): Job {
  const out = structuredClone(job);
  const st = out.status ?? {};
  const u = st.uncountedTerminatedPods;
  if (u) {
    if (!u.succeeded?.length) delete u.succeeded;
    if (!u.failed?.length) delete u.failed;
  }
  if (st.completedIndexes === '') delete st.completedIndexes;
  return out;
}

export async function trackStatusAndRemoveFinalizers(c: Ctx, needsFlushIn: boolean, now: number, fx: JobEffects): Promise<void> {
  let needsFlush = needsFlushIn;
  const job = c.job;
  const indexed = isIndexed(job);
  const pods = indexed ? [...c.pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : c.pods;
  const withFinalizer = new Set(pods.filter(p => hasTrackingFinalizer(p) && !c.expectedRm.has(uidOf(p))).map(uidOf));
  if (countRemoved(job.status!, withFinalizer)) needsFlush = true;
  const uncounted = job.status!.uncountedTerminatedPods!;
  uncounted.succeeded ??= [];
  uncounted.failed ??= [];
  const toRemove: Pod[] = [];
  const newSucceededIndexes: number[] = [];
  let reachedMax = false;
  const ending = !!c.finished && c.finished.type !== 'SuccessCriteriaMet';
  for (const p of pods) {
    const uid = uidOf(p);
    if (!hasTrackingFinalizer(p) || c.expectedRm.has(uid)) continue;
    const failed = isPodFailed(p, job);
    if (!canRemoveFinalizer(c, p, failed)) continue;
    toRemove.push(p);
    if (p.status?.phase === 'Succeeded' && !c.uncountedFailed.has(uid)) {
      if (indexed) {
        const ix = completionIndex(p);
        if (validIndex(job, ix) && !hasIndex(c.prevSucceededIndexes, ix)) { newSucceededIndexes.push(ix); needsFlush = true; }
      } else if (!c.uncountedSucceeded.has(uid)) {
        uncounted.succeeded.push(uid);
        needsFlush = true;
      }
    } else if (failed || ending) {
      // once the job has failed, every pod still running counts as failed
      const ix = completionIndex(p);
      if (!c.uncountedFailed.has(uid) && (!indexed || validIndex(job, ix))) {
        if (matchPodFailurePolicy(job.spec.podFailurePolicy, p).countFailed) { uncounted.failed.push(uid); needsFlush = true; }
      }
    }
    if (newSucceededIndexes.length + uncounted.succeeded.length + uncounted.failed.length >= maxUncountedPods) { reachedMax = true; break; }
  }
  if (indexed) {
    c.succeededIndexes = withIndexes(c.succeededIndexes, newSucceededIndexes);
    const text = formatIndexes(c.succeededIndexes);
    if (text !== (job.status!.completedIndexes ?? '')) needsFlush = true;
    job.status!.succeeded = totalIndexes(c.succeededIndexes);
    job.status!.completedIndexes = text;
    const failedText = c.failedIndexes ? formatIndexes(c.failedIndexes) : undefined;
    if (failedText !== (job.status!.failedIndexes ?? undefined)) { job.status!.failedIndexes = failedText; needsFlush = true; }
  }
  let finished = c.finished;
  if (finished?.type === 'FailureTarget') {
    job.status!.conditions = [...(job.status!.conditions ?? []), finished];
    needsFlush = true;
    finished = newCondition('Failed', 'True', finished.reason ?? '', finished.message ?? '', now);
  }
  if (finished?.type === 'SuccessCriteriaMet' && finished.status === 'True') {
    if (!conditionTrue(job.status!.conditions, 'SuccessCriteriaMet')) { job.status!.conditions = [...(job.status!.conditions ?? []), finished]; needsFlush = true; }
    finished = newCondition('Complete', 'True', finished.reason ?? '', finished.message ?? '', now);
  }

  // 1. the uncounted pods are recorded before their finalizers go, so none is counted twice or lost
  let current = job;
  if (needsFlush) { current = await fx.updateStatus(forWrite(job)); needsFlush = false; }
  // 2. finalizers removed; 3. pods without one move into the counters
  let rmErr: unknown;
  await Promise.all(toRemove.map(async p => {
    try { await fx.removeFinalizer(p); withFinalizer.delete(uidOf(p)); } catch (e) { rmErr ??= e; }
  }));
  current.status ??= {};
  current.status.uncountedTerminatedPods ??= { succeeded: [], failed: [] };
  if (countRemoved(current.status, withFinalizer)) needsFlush = true;
  if (rmErr) {
    if (needsFlush) await fx.updateStatus(forWrite(current));
    throw rmErr;
  }
  // 4. the terminal condition, once nothing is uncounted or terminating
  let jobFinished = false;
  const u = current.status.uncountedTerminatedPods;
  if (!reachedMax && finished && (u.succeeded ?? []).length + (u.failed ?? []).length === 0 && c.terminating === 0) {
    current.status.conditions = ensureCondition(current.status.conditions ?? [], finished.type, finished.status, finished.reason ?? '', finished.message ?? '', now).list;
    if (finished.type === 'Complete') current.status.completionTime = findCondition(current.status.conditions, 'Complete')!.lastTransitionTime;
    jobFinished = true;
    needsFlush = true;
  }
  if (!needsFlush) return;
  const stored = await fx.updateStatus(forWrite(current));
  if (!jobFinished) return;
  if (finished!.type === 'Complete') {
    const completions = stored.spec.completions;
    if (completions !== undefined && completions !== null && (stored.status?.succeeded ?? 0) > completions) {
      fx.event('Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
    }
    fx.event('Normal', 'Completed', 'Job completed');
  } else {
    fx.event('Warning', finished!.reason ?? '', finished!.message ?? '');
  }
}


