// The Job controller (kube-controller-manager's `job-controller`): informers over Jobs and pods,
// a work queue of jobs, and the API calls syncJob asks for. Pod events reach their job through
// its controller reference, batched for a second as Kubernetes batches them; spec changes sync
// at once. Pods still holding the tracking finalizer after their job finished or went away are
// let go by a second queue.

import { requeueDelay } from '../requeue-delay.ts';
import type { Logger } from '../../api/log.ts';
import { realClock, type Clock } from '../../api/clock.ts';
import { isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { BackoffRecord } from './backoff.ts';
import { isFinished } from './conditions.ts';
import { adoptPatch, claimPod, releasePatch } from './claim.ts';
import { Expectations } from './expectations.ts';
import { byController } from '../controller-index.ts';
import { hasTrackingFinalizer, jobPodView, trackingFinalizer, type Job, type Pod } from './pods.ts';
import { managedElsewhere, syncJob, type JobEffects } from './sync.ts';

export interface JobControllerOptions {
  clock?: Clock;
  /** how long pod and status events wait to be synced together; Kubernetes' is 1 s */
  batchMs?: number;
  workers?: number;
  /** a Job informer shared with other controllers (started and stopped by its owner) */
  jobs?: Informer<Job>;
}

const jobPath = (ns: string, name = '', sub = '') => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs${name ? `/${encodeURIComponent(name)}` : ''}${sub}`;
const podPath = (ns: string, name = '') => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods${name ? `/${encodeURIComponent(name)}` : ''}`;
const removeFinalizerPatch = { metadata: { '$deleteFromPrimitiveList/finalizers': [trackingFinalizer] } };

const controllerOf = (p: Pod) => (p.metadata.ownerReferences ?? []).find(r => r.controller);

export function startJobController(client: Client, log: Logger, opts: JobControllerOptions = {}): { stop(): void } {
  const clock = opts.clock ?? realClock;
  const batchMs = opts.batchMs ?? 1000;
  const expectations = new Expectations(() => clock.now());
  const backoffs = new Map<string, BackoffRecord>();
  const events = eventRecorder(client, 'job-controller', log, undefined, () => clock.now());
  const jobs = opts.jobs ?? createInformer<Job>(client, '/apis/batch/v1/jobs', { log });
  const pods = createInformer<Pod>(client, '/api/v1/pods', { log, transform: jobPodView });

  /** the job a controller reference names, if it is still that job */
  const jobOf = (p: Pod): Job | undefined => {
    const ref = controllerOf(p);
    if (!ref || ref.kind !== 'Job') return undefined;
    const j = jobs.get(`${p.metadata.namespace}/${ref.name}`);
    return j && j.metadata.uid === ref.uid ? j : undefined;
  };
  const podIndex = byController(pods);
  const podsOf = (job: Job) => podIndex.controlledBy(job.metadata.uid);

  /** the job's pods after adopting orphans it selects and releasing pods it no longer selects */
  async function claimPods(job: Job): Promise<Pod[]> {
    const ns = job.metadata.namespace!;
    const out: Pod[] = [];
    let fresh: Job | undefined;
    for (const p of [...podsOf(job), ...podIndex.orphansIn(ns)]) {
      const claim = claimPod(job, p);
      if (claim === 'keep') out.push(p);
      else if (claim === 'release') {
        await client.patch(podPath(ns, p.metadata.name!), releasePatch(job, p), 'application/strategic-merge-patch+json').catch(err => { if (!isNotFound(err)) throw err; });
      } else if (claim === 'adopt') {
        // adopt only for a job that is still there and not being deleted, read afresh
        fresh ??= await client.get<Job>(jobPath(ns, job.metadata.name!));
        if (fresh.metadata.uid !== job.metadata.uid || fresh.metadata.deletionTimestamp) continue;
        try {
          out.push(await client.patch<Pod>(podPath(ns, p.metadata.name!), adoptPatch(job, p), 'application/strategic-merge-patch+json'));
        } catch (err) { if (!isNotFound(err)) throw err; }
      }
    }
    return out;
  }

  async function sync(key: string): Promise<void> {
    // a job synced before its pods are known would look empty and get them all again
    await pods.synced();
    const job = jobs.get(key);
    if (!job) { expectations.forget(key); backoffs.delete(key); return; }
    const satisfiedExpectations = expectations.satisfied(key);
    const ns = job.metadata.namespace!;
    const fx: JobEffects = {
      now: () => clock.now(),
      async createPod(pod) {
        expectations.expectCreations(key);
        let created: Pod;
        try { created = await client.create<Pod>(podPath(ns), pod); } catch (err) { expectations.creationObserved(key); events.record(eventTarget(job), 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`); throw err; }
        events.record(eventTarget(job), 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      },
      async deletePod(pod) {
        expectations.expectDeletions(key);
        try { await client.delete(podPath(ns, pod.metadata.name!)); } catch (err) {
          expectations.deletionObserved(key);
          if (isNotFound(err)) return;
          events.record(eventTarget(job), 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
          throw err;
        }
        events.record(eventTarget(job), 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      },
      async removeFinalizer(pod) {
        if (!hasTrackingFinalizer(pod)) return;
        const uid = String(pod.metadata.uid);
        expectations.expectFinalizerRemoval(key, uid);
        try { await client.patch(podPath(ns, pod.metadata.name!), removeFinalizerPatch, 'application/strategic-merge-patch+json'); } catch (err) {
          expectations.finalizerRemovalObserved(key, uid);
          if (!isNotFound(err)) throw err;
        }
      },
      updateStatus: j => client.update<Job>(jobPath(ns, j.metadata.name!, '/status'), j),
      event: (type, reason, message) => events.record(eventTarget(job), type, reason, message),
      requeueAfter: ms => queue.addAfter(key, requeueDelay(ms)),
    };
    const owned = managedElsewhere(job) || isFinished(job.status?.conditions) ? [] : await claimPods(job);
    const result = await syncJob(job, owned, { satisfiedExpectations, expectedRmFinalizers: expectations.expectedFinalizerRemovals(key), backoff: backoffs.get(key) }, fx);
    if (result.backoff) backoffs.set(key, result.backoff); else backoffs.delete(key);
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 1000, maxDelayMs: 60_000, log });

  // pods holding the finalizer whose job is gone or finished: nothing else will let them go
  const orphanQueue = createWorkQueue(async key => {
    const pod = pods.get(key);
    if (!pod || !hasTrackingFinalizer(pod)) return;
    const ref = controllerOf(pod);
    if (ref && (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1')) return;
    const job = jobOf(pod);
    if (job && (managedElsewhere(job) || !isFinished(job.status?.conditions))) return;
    try { await client.patch(podPath(pod.metadata.namespace!, pod.metadata.name!), removeFinalizerPatch, 'application/strategic-merge-patch+json'); } catch (err) { if (!isNotFound(err)) throw err; }
  }, { concurrency: 2, baseDelayMs: 1000, log });

  const enqueueLater = (job: Job) => queue.addAfter(objectKey(job), batchMs);
  const cleanupFinalizers = (job: Job) => {
    for (const p of podsOf(job)) if (hasTrackingFinalizer(p)) orphanQueue.add(objectKey(p));
  };

  function podGone(p: Pod, final: boolean): void {
    const job = jobOf(p);
    if (!job || isFinished(job.status?.conditions)) { if (hasTrackingFinalizer(p)) orphanQueue.add(objectKey(p)); return; }
    const key = objectKey(job);
    expectations.deletionObserved(key);
    if (final || !hasTrackingFinalizer(p)) expectations.finalizerRemovalObserved(key, String(p.metadata.uid));
    enqueueLater(job);
  }

  /** an orphan wakes the jobs that would adopt it */
  const wakeAdopters = (p: Pod) => {
    if (controllerOf(p)) return;
    for (const j of jobs.list()) if (j.metadata.namespace === p.metadata.namespace && claimPod(j, p) === 'adopt') enqueueLater(j);
  };

  pods.on('add', p => {
    if (p.metadata.deletionTimestamp) return podGone(p, false);
    const job = jobOf(p);
    if (job) { expectations.creationObserved(objectKey(job)); enqueueLater(job); return; }
    if (hasTrackingFinalizer(p)) orphanQueue.add(objectKey(p));
    wakeAdopters(p);
  });
  pods.on('update', (old, p) => {
    if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
    if (p.metadata.deletionTimestamp) return podGone(p, false);
    const oldJob = jobOf(old);
    const job = jobOf(p);
    if (oldJob && oldJob !== job) enqueueLater(oldJob);
    if (job) {
      if (!hasTrackingFinalizer(p)) expectations.finalizerRemovalObserved(objectKey(job), String(p.metadata.uid));
      enqueueLater(job);
      return;
    }
    if (hasTrackingFinalizer(p)) orphanQueue.add(objectKey(p));
    wakeAdopters(p);
  });
  pods.on('delete', p => podGone(p, true));

  jobs.on('add', j => queue.add(objectKey(j)));
  jobs.on('update', (old, j) => {
    const key = objectKey(j);
    if (old.metadata.generation === j.metadata.generation) enqueueLater(j); else queue.add(key);
    if (isFinished(j.status?.conditions)) cleanupFinalizers(j);
    const ads = j.spec.activeDeadlineSeconds;
    if (j.status?.startTime && ads !== undefined && ads !== null && ads !== old.spec.activeDeadlineSeconds) {
      queue.addAfter(key, requeueDelay(ads * 1000 - (clock.now() - Date.parse(j.status.startTime))));
    }
  });
  jobs.on('delete', j => { queue.add(objectKey(j)); cleanupFinalizers(j); });

  // jobs are synced once the pods are known, or every job would look empty
  pods.start();
  if (!opts.jobs) void pods.synced().then(() => jobs.start());
  return {
    stop() {
      if (!opts.jobs) jobs.stop();
      pods.stop();
      queue.shutdown();
      orphanQueue.shutdown();
    },
  };
}

function eventTarget(job: Job) {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: job.metadata.name!, namespace: job.metadata.namespace, uid: job.metadata.uid, resourceVersion: job.metadata.resourceVersion } };
}
