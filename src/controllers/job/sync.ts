// One sync of one Job, in the order kube-controller-manager's job controller takes its steps:
// count newly finished pods (those still holding the tracking finalizer), decide whether the
// job has failed (pod failure policy, backoffLimit, activeDeadlineSeconds, failed indexes) or
// met its success criteria, create or delete pods, then record finished pods in
// status.uncountedTerminatedPods before their finalizers go, move them into the counters, and
// only when no pod is left terminating turn FailureTarget/SuccessCriteriaMet into Failed/Complete.
// The API calls are effects handed in, so every decision here runs in tests without a server.

import { rfc3339 } from '../../api/time.ts';
import { indexFailureCount, indexIgnoredFailureCount, nextBackoffRecord, type BackoffRecord } from './backoff.ts';
import { ensureCondition, findCondition, isFinished, newCondition, type Condition } from './conditions.ts';
import { hasIndex, parseIndexes, totalIndexes, withIndexes } from './indexes.ts';
import { planPodChanges } from './manage-pods.ts';
import { podForJob } from './pod-template.ts';
import { matchPodFailurePolicy, matchSuccessPolicy } from './policies.ts';
import {
  completionIndex, finishedTime, hasBackoffLimitPerIndex, hasTrackingFinalizer, isActive, isIndexed, isPodFailed, isReady,
  isTerminating, type Job, type Pod,
} from './pods.ts';
import { completionsOf, uidOf, validIndex, type Ctx, type JobEffects, type JobSyncState } from './sync-context.ts';
import { trackStatusAndRemoveFinalizers } from './track-status.ts';

export type { JobEffects, JobSyncState } from './sync-context.ts';

/** pods holding the finalizer, not yet uncounted or expected to lose it, with a valid index where indexed */
function countable(c: Ctx, uncounted: Set<string>, keep: (p: Pod) => boolean): Pod[] {
  return c.pods.filter(p => {
    const uid = uidOf(p);
    if (!hasTrackingFinalizer(p) || uncounted.has(uid) || c.expectedRm.has(uid)) return false;
    if (isIndexed(c.job) && !validIndex(c.job, completionIndex(p))) return false;
    return keep(p);
  });
}

/** restart counts of running OnFailure pods reaching backoffLimit */
function pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
  if (job.spec.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

function isIndexFailed(job: Job, p: Pod): boolean {
  if (!isPodFailed(p, job)) return false;
  let counted = true;
  if (job.spec.podFailurePolicy) {
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, p);
    if (m.action === 'FailIndex') return true;
    counted = m.countFailed;
  }
  return counted && indexFailureCount(p) >= (job.spec.backoffLimitPerIndex ?? 0);
}

/** per index, the newest failed pod whose deletion waits for its replacement */
function delayedDeletionPerIndex(c: Ctx): Map<number, Pod> {
  const activeIx = new Set(c.active.map(completionIndex));
  const out = new Map<number, Pod>();
  for (const p of countable(c, new Set(), p => isPodFailed(p, c.job))) {
    const ix = completionIndex(p);
    if (hasIndex(c.succeededIndexes, ix) || hasIndex(c.failedIndexes, ix) || activeIx.has(ix)) continue;
    const prev = out.get(ix);
    const count = (q: Pod) => indexFailureCount(q) + indexIgnoredFailureCount(q);
    if (!prev || (count(prev) <= count(p) && finishedTime(p) >= finishedTime(prev))) out.set(ix, p);
  }
  return out;
}

async function deleteAll(pods: Pod[], del: (p: Pod) => Promise<void>): Promise<{ deleted: number; deletedReady: number; err?: unknown }> {
  let deleted = 0, deletedReady = 0, err: unknown;
  await Promise.all(pods.map(async p => {
    try { await del(p); deleted++; } catch (e) { err ??= e; }
    if (isReady(p)) deletedReady++;
  }));
  return { deleted, deletedReady, err };
}

/** creates pods in batches of 1, 2, 4…, stopping at the first batch with a failure */
async function createPods(c: Ctx, indexes: Array<number | undefined>, fx: JobEffects): Promise<{ created: number; err?: unknown }> {
  let created = 0, err: unknown, pos = 0;
  for (let batch = Math.min(indexes.length, 1); pos < indexes.length; batch = Math.min(2 * batch, indexes.length - pos)) {
    const slice = indexes.slice(pos, pos + batch);
    pos += slice.length;
    await Promise.all(slice.map(async ix => {
      try { await fx.createPod(podForJob(c.job, ix, ix === undefined ? undefined : c.delayedDeletion.get(ix))); created++; } catch (e) { err ??= e; }
    }));
    if (err) break;
  }
  return { created, err };
}

function failureCondition(reason: string, message: string, now: number): Condition {
  // the terminal Failed waits until no pod is terminating; FailureTarget says so meanwhile
  return newCondition('FailureTarget', 'True', reason, message, now);
}

/** the job's failure or success decided before pods are managed, if any */
function decideFinished(c: Ctx, failed: number, now: number, fx: JobEffects): Condition | undefined {
  const { job } = c;
  const met = findCondition(job.status?.conditions, 'SuccessCriteriaMet');
  if (met?.status === 'True') return met;
  const target = findCondition(job.status?.conditions, 'FailureTarget');
  if (target?.status === 'True') return newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
  if (job.spec.podFailurePolicy) {
    for (const p of c.pods) {
      if (!isPodFailed(p, job)) continue;
      const msg = matchPodFailurePolicy(job.spec.podFailurePolicy, p).failJobMessage;
      if (msg) return failureCondition('PodFailurePolicy', msg, now);
    }
  }
  if (failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, c.pods)) return failureCondition('BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
  const deadline = job.spec.activeDeadlineSeconds;
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : undefined;
  if (deadline !== undefined && deadline !== null && start !== undefined && !job.spec.suspend) {
    const left = deadline * 1000 - (now - start);
    if (left <= 0) return failureCondition('DeadlineExceeded', 'Job was active longer than specified deadline', now);
    fx.requeueAfter(left);
  }
  return undefined;
}

/** jobs whose spec.managedBy names another controller are that controller's to sync */
export const managedElsewhere = (job: Job) => !!job.spec.managedBy && job.spec.managedBy !== 'kubernetes.io/job-controller';

export async function syncJob(shared: Job, allPods: Pod[], state: JobSyncState, fx: JobEffects): Promise<{ backoff?: BackoffRecord }> {
  if (managedElsewhere(shared)) return { backoff: state.backoff };
  if (isFinished(shared.status?.conditions)) return {};
  const mode = shared.spec.completionMode ?? 'NonIndexed';
  if (mode !== 'NonIndexed' && mode !== 'Indexed') {
    fx.event('Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
    return { backoff: state.backoff };
  }
  const now = fx.now();
  const job: Job = structuredClone(shared);
  job.status ??= {};
  job.status.uncountedTerminatedPods ??= {};
  const uncounted = job.status.uncountedTerminatedPods;
  const active = allPods.filter(isActive);
  const c: Ctx = {
    job, pods: allPods, active, ready: active.filter(isReady).length, terminating: allPods.filter(isTerminating).length, succeeded: 0,
    uncountedSucceeded: new Set(uncounted.succeeded ?? []), uncountedFailed: new Set(uncounted.failed ?? []),
    expectedRm: state.expectedRmFinalizers, prevSucceededIndexes: [], succeededIndexes: [], delayedDeletion: new Map(),
    backoff: { failuresAfterLastSuccess: 0 },
  };
  const newSucceeded = countable(c, c.uncountedSucceeded, p => p.status?.phase === 'Succeeded');
  const newFailed = countable(c, c.uncountedFailed, p => isPodFailed(p, job));
  const countedNewFailed = newFailed.filter(p => matchPodFailurePolicy(job.spec.podFailurePolicy, p).countFailed).length;
  c.succeeded = (job.status.succeeded ?? 0) + newSucceeded.length + c.uncountedSucceeded.size;
  const failed = (job.status.failed ?? 0) + countedNewFailed + c.uncountedFailed.size;

  if (!job.status.startTime && !job.spec.suspend) job.status.startTime = rfc3339(new Date(now));
  c.backoff = nextBackoffRecord(state.backoff, newSucceeded, newFailed);
  c.finished = decideFinished(c, failed, now, fx);

  if (isIndexed(job)) {
    const completions = completionsOf(job);
    c.prevSucceededIndexes = parseIndexes(job.status.completedIndexes, completions);
    c.succeededIndexes = withIndexes(c.prevSucceededIndexes, allPods.filter(p => p.status?.phase === 'Succeeded' && validIndex(job, completionIndex(p)) && hasTrackingFinalizer(p)).map(completionIndex));
    c.succeeded = totalIndexes(c.succeededIndexes);
    if (hasBackoffLimitPerIndex(job)) {
      c.failedIndexes = withIndexes(parseIndexes(job.status.failedIndexes ?? undefined, completions),
        allPods.filter(p => validIndex(job, completionIndex(p)) && hasTrackingFinalizer(p) && isIndexFailed(job, p)).map(completionIndex));
      if (!c.finished) {
        const nFailed = totalIndexes(c.failedIndexes);
        if (job.spec.maxFailedIndexes !== undefined && job.spec.maxFailedIndexes !== null && nFailed > job.spec.maxFailedIndexes) {
          c.finished = failureCondition('MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes', now);
        } else if (nFailed > 0 && nFailed + totalIndexes(c.succeededIndexes) >= completions) {
          c.finished = failureCondition('FailedIndexes', 'Job has failed indexes', now);
        }
      }
      c.delayedDeletion = delayedDeletionPerIndex(c);
    }
    if (!c.finished) {
      const msg = matchSuccessPolicy(job.spec.successPolicy, completions, c.succeededIndexes);
      if (msg) c.finished = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', msg, now);
    }
  }

  let activeCount = active.length;
  let manageErr: unknown;
  let suspendChanged = false;
  if (c.finished) {
    // active pods are deleted keeping their finalizers; they are counted once gone
    const r = await deleteAll(c.active, p => fx.deletePod(p));
    if (r.deleted !== activeCount || !state.satisfiedExpectations) c.finished = undefined;
    activeCount -= r.deleted;
    c.terminating += r.deleted;
    c.ready -= r.deletedReady;
    manageErr = r.err;
  } else {
    let managed = false;
    if (state.satisfiedExpectations && !job.metadata.deletionTimestamp) {
      managed = true;
      const plan = planPodChanges({ job, pods: allPods, activePods: active, succeeded: c.succeeded, terminating: c.terminating, succeededIndexes: c.succeededIndexes, failedIndexes: c.failedIndexes, delayedDeletion: c.delayedDeletion, backoff: c.backoff, now });
      if (plan.kind === 'delete') {
        const r = await deleteAll(plan.pods, async p => { await fx.removeFinalizer(p); await fx.deletePod(p); });
        activeCount -= r.deleted;
        c.terminating += r.deleted;
        c.ready -= r.deletedReady;
        manageErr = r.err;
      } else if (plan.kind === 'create') {
        const r = await createPods(c, plan.indexes, fx);
        activeCount += r.created;
        manageErr = r.err;
      } else if (plan.kind === 'wait') {
        fx.requeueAfter(Math.max(plan.ms, 1000));
      }
    }
    const completions = job.spec.completions;
    const complete = completions === undefined || completions === null ? c.succeeded > 0 && activeCount === 0 : c.succeeded >= completions && activeCount === 0;
    if (complete) {
      c.finished = newCondition('SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
    } else if (managed) {
      const conds = job.status.conditions ?? [];
      const r = job.spec.suspend
        ? ensureCondition(conds, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)
        : ensureCondition(conds, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
      if (r.changed) {
        job.status.conditions = r.list;
        suspendChanged = true;
        if (job.spec.suspend) fx.event('Normal', 'Suspended', 'Job suspended');
        else {
          fx.event('Normal', 'Resumed', 'Job resumed');
          // activeDeadlineSeconds counts time continuously active: it starts again on resume
          job.status.startTime = rfc3339(new Date(now));
        }
      }
    }
  }

  const needsUpdate = suspendChanged || activeCount !== (job.status.active ?? 0) || c.ready !== job.status.ready || c.terminating !== job.status.terminating;
  job.status.active = activeCount;
  job.status.ready = c.ready;
  job.status.terminating = c.terminating;
  await trackStatusAndRemoveFinalizers(c, needsUpdate, now, fx);
  if (manageErr) throw manageErr;
  return { backoff: c.backoff };
}
