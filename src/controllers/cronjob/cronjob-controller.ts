// The CronJob controller (kube-controller-manager's `cronjob-controller`, its v2): informers over
// CronJobs and Jobs, a work queue of CronJobs each synced again just after its next activation,
// and the API calls syncCronJob asks for. A change of schedule or time zone moves that time; a
// job's events wake the CronJob that controls it.

import { requeueDelay } from '../requeue-delay.ts';
import type { Logger } from '../../api/log.ts';
import { realClock, type Clock } from '../../api/clock.ts';
import { timeZoneError } from '../../api/time-zone.ts';
import { parseCronSchedule } from '../../api/cron-schedule.ts';
import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../../client/work-queue.ts';
import { nextScheduleDelay, type CronJob } from './schedule-times.ts';
import { syncCronJob, type CronJobEffects, type Job } from './sync.ts';

const cronJobPath = (ns: string, name: string, sub = '') => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/cronjobs/${encodeURIComponent(name)}${sub}`;
const jobsPath = (ns: string, name = '') => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs${name ? `/${encodeURIComponent(name)}` : ''}`;
const controllerOf = (j: Job) => (j.metadata.ownerReferences ?? []).find(r => r.controller);

export interface CronJobControllerOptions {
  clock?: Clock;
  /** a Job informer shared with other controllers (started and stopped by its owner) */
  jobs?: Informer<Job>;
}

export function startCronJobController(client: Client, log: Logger, opts: CronJobControllerOptions = {}): { stop(): void } {
  const clock = opts.clock ?? realClock;
  const events = eventRecorder(client, 'cronjob-controller', log, undefined, () => clock.now());
  const cronJobs = createInformer<CronJob>(client, '/apis/batch/v1/cronjobs', { log });
  const jobs = opts.jobs ?? createInformer<Job>(client, '/apis/batch/v1/jobs', { log });

  async function sync(key: string): Promise<SyncResult> {
    const cj = cronJobs.get(key);
    if (!cj) return;
    const ns = cj.metadata.namespace!;
    const target = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: cj.metadata.name!, namespace: ns, uid: cj.metadata.uid, resourceVersion: cj.metadata.resourceVersion } };
    const fx: CronJobEffects = {
      now: () => clock.now(),
      getCronJob: () => client.get<CronJob>(cronJobPath(ns, cj.metadata.name!)),
      async getJob(name) {
        try { return await client.get<Job>(jobsPath(ns, name)); } catch (err) { if (isNotFound(err)) return undefined; throw err; }
      },
      async createJob(job) {
        try { return await client.create<Job>(jobsPath(ns), job); } catch (err) { if (isAlreadyExists(err)) return 'exists'; throw err; }
      },
      async deleteJob(job) {
        try { await client.delete(jobsPath(ns, job.metadata.name!), { propagationPolicy: 'Background' }); } catch (err) { if (!isNotFound(err)) throw err; }
      },
      event: (type, reason, message) => events.record(target, type, reason, message),
    };
    // jobs this CronJob controls, also those whose labels no longer match its template
    const children = jobs.list().filter(j => j.metadata.namespace === ns && controllerOf(j)?.kind === 'CronJob' && controllerOf(j)?.name === cj.metadata.name);
    const r = await syncCronJob(cj, children, fx);
    if (r.updateStatus) {
      // an empty active list is omitted, as Go's encoder leaves it
      if (r.cronJob.status && !r.cronJob.status.active?.length) delete r.cronJob.status.active;
      await client.update(cronJobPath(ns, cj.metadata.name!, '/status'), r.cronJob);
    }
    return r.requeueAfterMs !== undefined ? { requeueAfterMs: requeueDelay(r.requeueAfterMs) } : undefined;
  }

  const queue = createWorkQueue(sync, { concurrency: 5, baseDelayMs: 1000, maxDelayMs: 60_000, log });
  const ownerOf = (j: Job) => {
    const ref = controllerOf(j);
    if (ref?.kind !== 'CronJob') return;
    const cj = cronJobs.get(`${j.metadata.namespace}/${ref.name}`);
    if (cj && cj.metadata.uid === ref.uid) queue.add(objectKey(cj));
  };
  cronJobs.on('add', cj => queue.add(objectKey(cj)));
  cronJobs.on('update', (old, cj) => {
    if (old.spec.schedule !== cj.spec.schedule || old.spec.timeZone !== cj.spec.timeZone) {
      // a new schedule: look again at its next activation
      try {
        const tz = cj.spec.timeZone;
        const sched = parseCronSchedule(cj.spec.schedule, tz && !timeZoneError(tz) ? tz : '');
        queue.addAfter(objectKey(cj), requeueDelay(nextScheduleDelay(cj, clock.now(), sched)));
      } catch (err) {
        events.record({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: cj.metadata.name!, namespace: cj.metadata.namespace, uid: cj.metadata.uid } },
          'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${cj.spec.schedule}`);
        log.debug('unparseable schedule', { cronjob: objectKey(cj), err: String(err) });
      }
      return;
    }
    queue.add(objectKey(cj));
  });
  jobs.on('add', ownerOf);
  jobs.on('update', (old, j) => { if (old.metadata.resourceVersion !== j.metadata.resourceVersion) { ownerOf(old); ownerOf(j); } });
  jobs.on('delete', ownerOf);
  // CronJobs are synced once their jobs are known
  if (!opts.jobs) jobs.start();
  void jobs.synced().then(() => cronJobs.start());
  return { stop() { cronJobs.stop(); if (!opts.jobs) jobs.stop(); queue.shutdown(); } };
}
