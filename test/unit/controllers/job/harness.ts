// syncJob over an in-memory job and its pods: the effects it asks for are applied to these
// objects as the API server and kubelet would leave them, so tests drive a job sync by sync.

import type { Job, Pod } from '../../../../src/controllers/job/pods.ts';
import { syncJob, type JobEffects } from '../../../../src/controllers/job/sync.ts';
import type { BackoffRecord } from '../../../../src/controllers/job/backoff.ts';

export interface Harness {
  job: Job;
  pods: Pod[];
  now: number;
  events: string[];
  requeues: number[];
  statusWrites: number;
  sync(): Promise<void>;
  pod(name: string): Pod;
  /** the pod ended, as the kubelet reports it */
  finish(name: string, phase: 'Succeeded' | 'Failed', exitCode?: number): void;
  /** a pod whose deletion the kubelet has finished: gone, unless a finalizer holds it */
  reap(): void;
}

export function jobHarness(spec: Partial<Job['spec']>, opts: { name?: string; now?: number } = {}): Harness {
  let seq = 0;
  let backoff: BackoffRecord | undefined;
  const h: Harness = {
    job: {
      apiVersion: 'batch/v1', kind: 'Job',
      metadata: { name: opts.name ?? 'pi', namespace: 'ns', uid: 'job-uid', generation: 1, resourceVersion: '1' },
      spec: { parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed', ...spec, template: { metadata: { labels: { 'job-name': opts.name ?? 'pi' } }, spec: { containers: [{ name: 'c', image: 'registry.local/app:1.0' }], restartPolicy: 'Never' }, ...spec.template } },
      status: {},
    },
    pods: [],
    now: opts.now ?? Date.parse('2026-01-01T00:00:00Z'),
    events: [],
    requeues: [],
    statusWrites: 0,
    async sync() {
      const fx: JobEffects = {
        now: () => h.now,
        async createPod(pod) {
          seq++;
          const p = structuredClone(pod);
          p.metadata.name = `${pod.metadata.generateName}${String(seq).padStart(5, '0')}`;
          p.metadata.uid = `pod-uid-${seq}`;
          p.metadata.creationTimestamp = new Date(h.now).toISOString();
          p.status = { phase: 'Pending' };
          h.pods.push(p);
        },
        async deletePod(pod) {
          const p = h.pods.find(x => x.metadata.uid === pod.metadata.uid);
          if (p) { p.metadata.deletionTimestamp = new Date(h.now).toISOString(); p.metadata.deletionGracePeriodSeconds = 30; }
        },
        async removeFinalizer(pod) {
          const p = h.pods.find(x => x.metadata.uid === pod.metadata.uid);
          if (p) p.metadata.finalizers = (p.metadata.finalizers ?? []).filter(f => f !== 'batch.kubernetes.io/job-tracking');
        },
        async updateStatus(job) {
          h.statusWrites++;
          h.job = structuredClone(job);
          return structuredClone(job);
        },
        event: (type, reason, message) => { h.events.push(`${type} ${reason} ${message}`); },
        requeueAfter: ms => { h.requeues.push(ms); },
      };
      const r = await syncJob(structuredClone(h.job), h.pods.map(p => structuredClone(p)), { satisfiedExpectations: true, expectedRmFinalizers: new Set(), backoff }, fx);
      backoff = r.backoff;
    },
    pod(name) {
      const p = h.pods.find(x => x.metadata.name === name);
      if (!p) throw new Error(`no pod ${name} among ${h.pods.map(x => x.metadata.name).join(', ')}`);
      return p;
    },
    finish(name, phase, exitCode = phase === 'Succeeded' ? 0 : 1) {
      const p = h.pod(name);
      const at = new Date(h.now).toISOString();
      p.status = {
        phase,
        conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at }],
        containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, finishedAt: at } } }],
      };
    },
    reap() {
      h.pods = h.pods.filter(p => !(p.metadata.deletionTimestamp && !(p.metadata.finalizers ?? []).length));
      for (const p of h.pods) if (p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded') p.status = { ...p.status, phase: 'Failed' };
    },
  };
  return h;
}
