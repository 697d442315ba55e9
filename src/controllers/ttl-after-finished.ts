// The TTL-after-finished controller (kube-controller-manager's `ttl-after-finished-controller`):
// a finished Job with spec.ttlSecondsAfterFinished is deleted that many seconds after its
// Complete or Failed condition turned true, in the foreground so its pods go first, and only
// if the job read afresh is still the finished one (its resourceVersion a precondition).

import { requeueDelay } from './requeue-delay.ts';
import type { Logger } from '../api/log.ts';
import { realClock, type Clock } from '../api/clock.ts';
import { isNotFound } from '../client/api-error.ts';
import { createInformer, objectKey, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../client/work-queue.ts';
import type { BatchV1Job } from '../schema/generated/types.ts';

type Job = BatchV1Job & { metadata: NonNullable<BatchV1Job['metadata']> };

/** when the job finished: the transition time of its true Complete or Failed condition */
export function jobFinishTime(job: Job): number | undefined {
  const c = (job.status?.conditions ?? []).find(x => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  if (!c) return undefined;
  const t = Date.parse(c.lastTransitionTime ?? '');
  return Number.isFinite(t) ? t : undefined;
}

/** nothing to do, delete now, or look again in so many ms */
export function ttlDecision(job: Job, now: number): 'keep' | 'delete' | { afterMs: number } {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return 'keep';
  const finished = jobFinishTime(job);
  if (finished === undefined) return 'keep';
  const left = finished + ttl * 1000 - now;
  return left <= 0 ? 'delete' : { afterMs: left };
}

/** jobs: a Job informer shared with other controllers (started and stopped by its owner) */
export function startTtlAfterFinishedController(client: Client, log: Logger, opts: { clock?: Clock; jobs?: Informer<Job> } = {}): { stop(): void } {
  const clock = opts.clock ?? realClock;
  const informer = opts.jobs ?? createInformer<Job>(client, '/apis/batch/v1/jobs', { log });
  const path = (ns: string, name: string) => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs/${encodeURIComponent(name)}`;

  async function sync(key: string): Promise<SyncResult> {
    const cached = informer.get(key);
    if (!cached) return;
    const d = ttlDecision(cached, clock.now());
    if (d === 'keep') return;
    if (d !== 'delete') return { requeueAfterMs: requeueDelay(d.afterMs) };
    // the cache may be behind: a job whose TTL was raised, or that was restarted, is kept
    let fresh: Job;
    try { fresh = await client.get<Job>(path(cached.metadata.namespace!, cached.metadata.name!)); } catch (err) { if (isNotFound(err)) return; throw err; }
    const again = ttlDecision(fresh, clock.now());
    if (again === 'keep') return;
    if (again !== 'delete') return { requeueAfterMs: requeueDelay(again.afterMs) };
    log.info('cleaning up job', { job: key });
    try {
      await client.delete(path(fresh.metadata.namespace!, fresh.metadata.name!), { propagationPolicy: 'Foreground', preconditions: { resourceVersion: fresh.metadata.resourceVersion } });
    } catch (err) { if (!isNotFound(err)) throw err; }
  }

  const queue = createWorkQueue(sync, { concurrency: 5, baseDelayMs: 1000, log });
  const consider = (j: Job) => { if (ttlDecision(j, clock.now()) !== 'keep') queue.add(objectKey(j)); };
  informer.on('add', consider).on('update', (_o, j) => consider(j));
  if (!opts.jobs) informer.start();
  return { stop() { if (!opts.jobs) informer.stop(); queue.shutdown(); } };
}
