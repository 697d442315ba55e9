// When a CronJob should have started a job, as the cronjob controller reckons it: the most
// recent activation since its last schedule (or its creation), not earlier than
// startingDeadlineSeconds allows, counting missed activations roughly to warn about too many;
// and how long to wait for the next one (plus 100 ms, so the sync lands after it).

import type { CronSchedule } from '../../api/cron-schedule.ts';
import type { BatchV1CronJob } from '../../schema/generated/types.ts';

export type CronJob = BatchV1CronJob & { metadata: NonNullable<BatchV1CronJob['metadata']>; spec: NonNullable<BatchV1CronJob['spec']> };

export const nextScheduleDeltaMs = 100;

export type Missed = 'none' | 'few' | 'many';

export interface MostRecent {
  earliest: number;
  mostRecent?: number;
  missed: Missed;
  error?: string;
}

export function mostRecentScheduleTime(cj: CronJob, now: number, sched: CronSchedule, withStartingDeadline: boolean): MostRecent {
  let earliest = Date.parse(cj.metadata.creationTimestamp ?? '') || now;
  if (cj.status?.lastScheduleTime) earliest = Date.parse(cj.status.lastScheduleTime);
  const deadline = cj.spec.startingDeadlineSeconds;
  if (withStartingDeadline && deadline !== undefined && deadline !== null) {
    // nothing older than the deadline will be started
    earliest = Math.max(earliest, now - deadline * 1000);
  }
  const t1 = sched.next(earliest);
  if (t1 === undefined || now < t1) return { earliest, missed: 'none' };
  const t2 = sched.next(t1);
  if (t2 === undefined || now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  // a rough count of the activations missed, from the interval between the first two
  const missedCount = Math.floor((now - t1) / 1000 / between) + 1;
  let mostRecent: number | undefined;
  const from = t1 + (missedCount - 2) * between * 1000;
  for (let t = sched.next(from); t !== undefined && t <= now; t = sched.next(t)) mostRecent = t;
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed };
}

/** the activation to act on now, if any; too many missed ones are reported through `tooMany` */
export function nextScheduleTime(cj: CronJob, now: number, sched: CronSchedule, tooMany: () => void): { time?: number; error?: string } {
  const r = mostRecentScheduleTime(cj, now, sched, true);
  if (r.mostRecent === undefined || r.mostRecent > now) return { error: r.error };
  if (r.missed === 'many') tooMany();
  return { time: r.mostRecent, error: r.error };
}

/** how long until the sync after the next activation */
export function nextScheduleDelay(cj: CronJob, now: number, sched: CronSchedule): number {
  const r = mostRecentScheduleTime(cj, now, sched, false);
  const from = r.error ? now : r.mostRecent ?? r.earliest;
  const next = sched.next(from);
  // a schedule that never fires again is looked at once a day
  return next === undefined ? 24 * 3600_000 : next + nextScheduleDeltaMs - now;
}
