// One worker per pod, so a pod's syncs never overlap and pods never wait for each other. A
// worker moves through syncing → terminating → terminated: a pod that finished, was deleted
// (deletionTimestamp) or left its source is stopped within its grace period, and a deleted one
// is then removed from the runtime and the API. Updates that arrive while a sync runs are
// folded into one more sync.

import type { Logger } from '../../api/log.ts';
import { backoffDelay, type BackoffPolicy } from '../../api/backoff.ts';
import type { Clock } from '../clock.ts';
import type { PodSyncer } from './pod-syncer.ts';
import type { Pod } from './types.ts';

type Phase = 'syncing' | 'terminating' | 'terminated' | 'done';

/** a failed sync is retried after 1 s doubling to 30 s, each delay lengthened by up to half, as kubelet jitters its workers' back-off */
const syncRetry: BackoffPolicy = { initialMs: 1000, maxMs: 30_000, jitter: 0.5 };

interface Worker {
  pod: Pod;
  phase: Phase;
  /** gone from its source (deleted from the API, or its static manifest removed) */
  removed: boolean;
  running: boolean;
  pending: boolean;
  timer?: { cancel(): void };
  failures: number;
  /** the grace period the termination under way was given, in seconds */
  graceInUse?: number;
  /** the grace period the node imposed (eviction), in place of the pod's own */
  graceOverride?: number;
  /** waiting for the containers to stop (terminate()) */
  onTerminated?: Array<() => void>;
}

export interface PodWorkers {
  /** a pod from a source, new or changed */
  update(pod: Pod): void;
  /** the source no longer has the pod */
  remove(uid: string): void;
  /** something about the pod changed on the node (PLEG, probes): sync it soon */
  wake(uid: string): void;
  /**
   * Ends a running pod now, with this grace period (eviction): its containers are stopped and
   * it stays terminated until its source removes it. Resolves once it has stopped.
   */
  terminate(uid: string, gracePeriodSeconds: number): Promise<void>;
  has(uid: string): boolean;
  pods(): Pod[];
  /** resolves when no worker is busy (tests) */
  idle(): Promise<void>;
  stop(): void;
}

export interface PodWorkerOptions {
  syncer: PodSyncer;
  clock: Clock;
  log: Logger;
  /** a deleted pod is gone from the runtime: remove it from the API */
  onRemoved?(pod: Pod): Promise<void>;
  /** resync a settled pod this often even without events */
  resyncMs?: number;
}

/** a change the worker acts on: spec, labels, annotations, deletion */
function meaningfulChange(a: Pod, b: Pod): boolean {
  const ma = a.metadata, mb = b.metadata;
  return ma.deletionTimestamp !== mb.deletionTimestamp || ma.deletionGracePeriodSeconds !== mb.deletionGracePeriodSeconds
    || JSON.stringify(a.spec) !== JSON.stringify(b.spec) || JSON.stringify(ma.labels) !== JSON.stringify(mb.labels) || JSON.stringify(ma.annotations) !== JSON.stringify(mb.annotations);
}

const isTerminalPhase = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

export function startPodWorkers(opts: PodWorkerOptions): PodWorkers {
  const workers = new Map<string, Worker>();
  const resync = opts.resyncMs ?? 60_000;
  let stopped = false;
  let waiters: Array<() => void> = [];

  const checkIdle = () => {
    if ([...workers.values()].some(w => w.running)) return;
    const ws = waiters;
    waiters = [];
    for (const fn of ws) fn();
  };

  function schedule(w: Worker, ms: number): void {
    w.timer?.cancel();
    w.timer = opts.clock.after(ms, () => { w.timer = undefined; kick(w); });
  }

  function kick(w: Worker): void {
    if (stopped || w.phase === 'done') return;
    w.pending = true;
    if (!w.running) void run(w);
  }

  const grace = (w: Worker) => w.graceOverride ?? w.pod.metadata.deletionGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30;

  async function run(w: Worker): Promise<void> {
    w.running = true;
    const uid = w.pod.metadata.uid;
    try {
      while (w.pending && !stopped) {
        w.pending = false;
        if (w.phase === 'syncing' && (w.removed || w.pod.metadata.deletionTimestamp)) w.phase = 'terminating';
        if (w.phase === 'syncing') {
          const r = await opts.syncer.syncPod(w.pod);
          w.failures = 0;
          if (r.terminal) w.phase = 'terminating';
          else { schedule(w, r.requeueAfterMs ?? resync); continue; }
        }
        if (w.phase === 'terminating') {
          w.graceInUse = grace(w);
          await opts.syncer.syncTerminatingPod(w.pod, w.graceInUse);
          w.graceInUse = undefined;
          w.phase = 'terminated';
          for (const fn of w.onTerminated?.splice(0) ?? []) fn();
        }
        if (w.phase === 'terminated') {
          const remove = w.removed || !!w.pod.metadata.deletionTimestamp;
          await opts.syncer.syncTerminatedPod(w.pod, remove);
          if (remove) {
            if (!w.removed) await opts.onRemoved?.(w.pod);
            w.phase = 'done';
            w.timer?.cancel();
            workers.delete(uid);
          }
        }
      }
    } catch (err) {
      w.failures++;
      const delay = backoffDelay(syncRetry, w.failures - 1);
      opts.log.warn('pod sync failed', { pod: `${w.pod.metadata.namespace}/${w.pod.metadata.name}`, err: String(err), retryInMs: delay });
      schedule(w, delay);
    } finally {
      w.running = false;
      checkIdle();
    }
  }

  return {
    update(pod) {
      const uid = pod.metadata.uid;
      let w = workers.get(uid);
      if (!w) {
        // a pod the API already shows finished is not started again (after an agent restart)
        w = { pod, phase: isTerminalPhase(pod) ? 'terminating' : 'syncing', removed: false, running: false, pending: false, failures: 0 };
        workers.set(uid, w);
      }
      const before = w.pod;
      w.pod = pod;
      // a second delete with a shorter grace period cuts the termination under way short, as the
      // kubelet's workers do: the grace period only ever decreases
      if (w.graceInUse !== undefined && pod.metadata.deletionTimestamp && grace(w) < w.graceInUse) {
        w.graceInUse = grace(w);
        void opts.syncer.shortenTermination(pod, w.graceInUse).catch(err => opts.log.warn('shortening a termination failed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      }
      // the agent's own status writes come back as updates; only what it acts on wakes it
      if (before !== pod && !meaningfulChange(before, pod)) return;
      kick(w);
    },
    remove(uid) {
      const w = workers.get(uid);
      if (!w) return;
      w.removed = true;
      kick(w);
    },
    wake(uid) {
      const w = workers.get(uid);
      if (w && w.phase === 'syncing') kick(w);
    },
    terminate(uid, gracePeriodSeconds) {
      const w = workers.get(uid);
      if (!w || w.phase === 'terminated' || w.phase === 'done') return Promise.resolve();
      w.graceOverride = gracePeriodSeconds;
      if (w.phase === 'syncing') w.phase = 'terminating';
      const done = new Promise<void>(r => (w.onTerminated ??= []).push(r));
      kick(w);
      return done;
    },
    has: uid => workers.has(uid),
    pods: () => [...workers.values()].map(w => w.pod),
    idle() {
      if (![...workers.values()].some(w => w.running)) return Promise.resolve();
      return new Promise(r => waiters.push(r));
    },
    stop() {
      stopped = true;
      for (const w of workers.values()) w.timer?.cancel();
    },
  };
}
