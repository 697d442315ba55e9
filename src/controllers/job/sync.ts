// One sync of one Job, in the order kube-controller-manager's job controller takes its steps:
// count newly finished pods (those still holding the tracking finalizer), decide whether the
// job has failed (pod failure policy, backoffLimit, activeDeadlineSeconds, failed indexes) or
// met its success criteria, create or delete pods, then record finished pods in
// status.uncountedTerminatedPods before their finalizers go, move them into the counters, and
// only when no pod is left terminating turn FailureTarget/SuccessCriteriaMet into Failed/Complete.
// The API calls are effects handed in, so every decision here runs in tests without a server.

import { rfc3339 } from '../../api/time.ts';
import { nextBackoffRecord, type BackoffRecord } from './backoff.ts';
import { conditionTrue, ensureCondition, findCondition, isFinished, newCondition, type Condition } from './conditions.ts';
import { formatIndexes, hasIndex, parseIndexes, totalIndexes, withIndexes, type Intervals } from './indexes.ts';
import { planPodChanges } from './manage-pods.ts';
import { podForJob } from './pod-template.ts';
import { indexFailureCount, indexIgnoredFailureCount } from './backoff.ts';
import { matchPodFailurePolicy, matchSuccessPolicy } from './policies.ts';
import {
  completionIndex, finishedTime, hasBackoffLimitPerIndex, hasTrackingFinalizer, isActive, isIndexed, isPodFailed, isReady,
  isTerminating, type Job, type Pod,
} from './pods.ts';

/** uncounted pod UIDs kept in status at most, so the status stays small */
export const maxUncountedPods = 500;

export interface JobEffects {
  now(): number;
  /** creates a pod; throws when the API refuses */
  createPod(pod: Pod): Promise<void>;
  /** deletes a pod (already gone counts as done) */
  deletePod(pod: Pod): Promise<void>;
  /** removes the tracking finalizer (a pod already gone counts as done) */
  removeFinalizer(pod: Pod): Promise<void>;
  /** writes the job's status; returns the job as stored */
  updateStatus(job: Job): Promise<Job>;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** asks for another sync of this job after ms */
  requeueAfter(ms: number): void;
}

export interface JobSyncState {
  /** every pod creation and deletion asked for earlier has been seen */
  satisfiedExpectations: boolean;
  /** pods whose finalizer removal was asked for and not yet seen */
  expectedRmFinalizers: Set<string>;
  backoff?: BackoffRecord;
}

interface Ctx {
  job: Job;
  pods: Pod[];
  active: Pod[];
  ready: number;
  terminating: number;
  succeeded: number;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  expectedRm: Set<string>;
  prevSucceededIndexes: Intervals;
  succeededIndexes: Intervals;
  failedIndexes?: Intervals;
  delayedDeletion: Map<number, Pod>;
  finished?: Condition;
  backoff: BackoffRecord;
}

const uidOf = (p: Pod) => String(p.metadata.uid);
const completionsOf = (job: Job) => job.spec.completions ?? 0;
const validIndex = (job: Job, ix: number) => ix >= 0 && ix < completionsOf(job);

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

async function trackStatusAndRemoveFinalizers(c: Ctx, needsFlushIn: boolean, now: number, fx: JobEffects): Promise<void> {
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

