// One sync of one CronJob, as the cronjob controller takes its steps: finished jobs beyond the
// history limits are deleted (oldest start first), status.active follows the jobs (finished or
// vanished ones leave it), then, unless suspended or the schedule is unreadable, the latest
// missed activation starts a job — unless it is too late for startingDeadlineSeconds, already
// started, forbidden by a running job (Forbid) or after deleting the running ones (Replace).
// Events carry Kubernetes' reasons and words. The API calls are effects handed in, and the
// clock is the caller's, so schedules are tested without waiting.

import { parseCronSchedule, type CronSchedule } from '../../api/cron-schedule.ts';
import { rfc3339 } from '../../api/time.ts';
import { timeZoneError } from '../../api/time-zone.ts';
import type { BatchV1Job, CoreV1ObjectReference } from '../../schema/generated/types.ts';
import { jobFromTemplate, jobNameFor } from './job-from-template.ts';
import { nextScheduleDelay, nextScheduleTime, type CronJob } from './schedule-times.ts';

export type Job = BatchV1Job & { metadata: NonNullable<BatchV1Job['metadata']> };

export interface CronJobEffects {
  now(): number;
  /** the CronJob read afresh from the API */
  getCronJob(): Promise<CronJob>;
  /** a job read from the API; undefined when there is none */
  getJob(name: string): Promise<Job | undefined>;
  /** the created job, or 'exists' when the name is taken */
  createJob(job: BatchV1Job): Promise<Job | 'exists'>;
  /** deletes a job with Background propagation */
  deleteJob(job: Job): Promise<void>;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export interface CronJobSyncResult {
  cronJob: CronJob;
  /** status changed and must be written */
  updateStatus: boolean;
  requeueAfterMs?: number;
}

function finishedType(j: Job): 'Complete' | 'Failed' | undefined {
  for (const c of j.status?.conditions ?? []) if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  return undefined;
}

const inActive = (cj: CronJob, uid: string | undefined) => (cj.status?.active ?? []).some(r => r.uid === uid);
const dropActive = (cj: CronJob, uid: string | undefined) => { cj.status = { ...cj.status, active: (cj.status?.active ?? []).filter(r => r.uid !== uid) }; };

/** RFC 1123 with a numeric zone, as Go's time.RFC1123Z writes a UTC time */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${p(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** oldest started first; jobs not started yet last; the name breaks ties */
function byStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime, sb = b.status?.startTime;
  if (!sb) return sa ? -1 : 0;
  if (!sa) return 1;
  if (sa === sb) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  return Date.parse(sa) - Date.parse(sb);
}

async function deleteJob(cj: CronJob, job: Job, fx: CronJobEffects): Promise<boolean> {
  try { await fx.deleteJob(job); } catch (err) {
    fx.event('Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`);
    return false;
  }
  dropActive(cj, job.metadata.uid);
  fx.event('Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
  return true;
}

/** deletes the oldest finished jobs beyond the history limits; returns whether status changed */
export async function cleanupFinishedJobs(cj: CronJob, jobs: Job[], fx: CronJobEffects): Promise<boolean> {
  const limits = { Complete: cj.spec.successfulJobsHistoryLimit, Failed: cj.spec.failedJobsHistoryLimit };
  let changed = false;
  for (const type of ['Complete', 'Failed'] as const) {
    const limit = limits[type];
    if (limit === undefined || limit === null) continue;
    const done = jobs.filter(j => finishedType(j) === type).sort(byStartTime);
    for (const j of done.slice(0, Math.max(0, done.length - limit))) if (await deleteJob(cj, j, fx)) changed = true;
  }
  return changed;
}

/** the schedule the CronJob runs on, with its time zone */
function scheduleOf(cj: CronJob, fx: CronJobEffects, warn: boolean): CronSchedule {
  if (cj.spec.schedule.includes('TZ')) {
    if (warn) fx.event('Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule "${cj.spec.schedule}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
    return parseCronSchedule(cj.spec.schedule);
  }
  const tz = cj.spec.timeZone;
  return parseCronSchedule(cj.spec.schedule, tz && !timeZoneError(tz) ? tz : '');
}

export async function syncCronJob(input: CronJob, jobs: Job[], fx: CronJobEffects): Promise<CronJobSyncResult> {
  let cj: CronJob = structuredClone(input);
  cj.status ??= {};
  const now = fx.now();
  let updateStatus = await cleanupFinishedJobs(cj, jobs, fx);
  const result = (requeueAfterMs?: number): CronJobSyncResult => ({ cronJob: cj, updateStatus, requeueAfterMs });

  const children = new Set(jobs.map(j => j.metadata.uid));
  for (const j of jobs) {
    const found = inActive(cj, j.metadata.uid);
    const finished = finishedType(j);
    if (!found && !finished) {
      const fresh = await fx.getCronJob();
      if (inActive(fresh, j.metadata.uid)) { cj = structuredClone(fresh); cj.status ??= {}; continue; }
      fx.event('Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
    } else if (found && finished) {
      dropActive(cj, j.metadata.uid);
      fx.event('Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${finished}`);
      updateStatus = true;
    } else if (finished === 'Complete' && j.status?.completionTime) {
      // a job need not be active to count: its completion is the last success if it is the latest
      const last = cj.status.lastSuccessfulTime;
      if (!last || Date.parse(j.status.completionTime) > Date.parse(last)) { cj.status.lastSuccessfulTime = j.status.completionTime; updateStatus = true; }
    }
  }
  for (const ref of [...(cj.status.active ?? [])]) {
    if (children.has(ref.uid)) continue;
    // the informer may be late: ask the API before dropping it
    if (!(await fx.getJob(ref.name ?? ''))) {
      fx.event('Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
      dropActive(cj, ref.uid);
      updateStatus = true;
    }
  }
  if (cj.metadata.deletionTimestamp) return result();
  const tz = cj.spec.timeZone;
  if (tz !== undefined && tz !== null) {
    const err = timeZoneError(tz);
    if (err) { fx.event('Warning', 'UnknownTimeZone', `invalid timeZone: "${tz}": ${err}`); return result(); }
  }
  if (cj.spec.suspend) return result();

  let sched: CronSchedule;
  try { sched = scheduleOf(cj, fx, true); } catch (err) {
    fx.event('Warning', 'UnparseableSchedule', `unparseable schedule: "${cj.spec.schedule}" : ${(err as Error).message}`);
    return result();
  }
  const next = nextScheduleTime(cj, now, sched, () => fx.event('Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew'));
  if (next.error) {
    fx.event('Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec.schedule} : ${next.error}`);
    return result();
  }
  const delay = () => nextScheduleDelay(cj, now, sched);
  if (next.time === undefined) return result(delay());
  const scheduled = next.time;
  const deadline = cj.spec.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && scheduled + deadline * 1000 < now) {
    fx.event('Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
    return result(delay());
  }
  const name = jobNameFor(cj, scheduled);
  if ((cj.status.active ?? []).some(r => r.name === name) || (cj.status.lastScheduleTime && Date.parse(cj.status.lastScheduleTime) === scheduled)) return result(delay());
  if (cj.spec.concurrencyPolicy === 'Forbid' && (cj.status.active ?? []).length > 0) {
    fx.event('Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
    return result(delay());
  }
  if (cj.spec.concurrencyPolicy === 'Replace') {
    for (const ref of [...(cj.status.active ?? [])]) {
      const job = await fx.getJob(ref.name ?? '');
      if (!job) { fx.event('Warning', 'FailedGet', `Get job: jobs.batch "${ref.name}" not found`); throw new Error(`job ${ref.name} not found`); }
      if (!(await deleteJob(cj, job, fx))) throw new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`);
      updateStatus = true;
    }
  }
  let created: Job;
  const made = await fx.createJob(jobFromTemplate(cj, scheduled)).catch((err: Error) => {
    fx.event('Warning', 'FailedCreate', `Error creating job: ${err.message}`);
    throw err;
  });
  if (made === 'exists') {
    // an earlier sync created it and lost the status write: take it back into status.active
    const existing = await fx.getJob(name);
    if (!existing) throw new Error(`job ${name} exists but cannot be read`);
    const ours = (existing.metadata.ownerReferences ?? []).some(r => r.controller && r.uid === cj.metadata.uid);
    if (!ours || inActive(cj, existing.metadata.uid)) return result();
    created = existing;
  } else {
    created = made;
    fx.event('Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
  }
  const ref: CoreV1ObjectReference = { kind: 'Job', namespace: created.metadata.namespace, name: created.metadata.name, uid: created.metadata.uid, apiVersion: 'batch/v1', resourceVersion: created.metadata.resourceVersion };
  cj.status.active = [...(cj.status.active ?? []), ref];
  cj.status.lastScheduleTime = rfc3339(new Date(scheduled));
  updateStatus = true;
  return result(delay());
}
