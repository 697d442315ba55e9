// The eviction manager, wired: each round (the agent's 10 s housekeeping) it reads the stats,
// works out the pressure conditions and the thresholds to act on (decide.ts), evicts pods past
// their own local storage limits, and otherwise, under a threshold whose grace period is over,
// first reclaims what the node can (dead containers, unused images) and then evicts one pod,
// the first in the kubelet's ranking, waiting for it to stop before the next round.

import type { Logger } from '../../api/log.ts';
import type { Collected } from '../stats/collector.ts';
import type { PodStatsJson } from '../stats/summary-types.ts';
import type { Pod } from '../pods/types.ts';
import type { PodCondition } from '../pods/pod-syncer.ts';
import { rfc3339 } from '../../api/time.ts';
import { evictedReason, isCriticalPod, pressureAdmission } from './admission.ts';
import { decide, emptyState, evictionGracePeriod, thresholdsMet, type EvictionState } from './decide.ts';
import { localStorageViolations } from './local-storage.ts';
import { evictionMessage, rankPods } from './rank.ts';
import { observe, signalResource } from './signals.ts';
import type { Signal, Threshold } from './thresholds.ts';

export interface EvictionManagerOptions {
  thresholds: Threshold[];
  /** evictionPressureTransitionPeriod */
  transitionPeriodMs: number;
  /** evictionMaxPodGracePeriod: the grace period under a soft threshold */
  maxPodGracePeriodSeconds: number;
  collect(): Promise<Collected>;
  /** the pods the agent runs */
  pods(): Pod[];
  /** ends a pod Failed with the reason and message; resolves once it has stopped */
  fail(pod: Pod, gracePeriodSeconds: number, why: { reason: string; message: string; condition?: PodCondition }): Promise<void>;
  /** frees what the node can for a disk signal (dead containers, unused images) */
  reclaim?(signal: Signal): Promise<void>;
  /** a Warning event on the node */
  nodeEvent?(reason: string, message: string): void;
  now(): number;
  log: Logger;
}

export interface EvictionManager {
  /** the pressure conditions the node reports True */
  conditions(): ReadonlySet<string>;
  /** a refusal for a pod that may not start under the current pressure */
  admit(pod: Pod): { reason: string; message: string } | undefined;
  /** one round; resolves once an evicted pod has stopped */
  synchronize(): Promise<void>;
}

const diskSignals = new Set<Signal>(['nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree']);

export function evictionManager(o: EvictionManagerOptions): EvictionManager {
  let state: EvictionState = emptyState();
  let conditions: ReadonlySet<string> = new Set();
  /** pods already being evicted, not chosen twice */
  const evicted = new Set<string>();
  const log = o.log.with({ component: 'eviction' });

  const active = () => o.pods().filter(p => !evicted.has(p.metadata.uid) && !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');

  async function evict(pod: Pod, grace: number, message: string, condition?: PodCondition): Promise<boolean> {
    if (isCriticalPod(pod)) {
      log.warn('cannot evict a critical pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
      return false;
    }
    evicted.add(pod.metadata.uid);
    log.info('evicting pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, message });
    await o.fail(pod, grace, { reason: evictedReason, message, ...(condition ? { condition } : {}) });
    return true;
  }

  return {
    conditions: () => conditions,
    admit: pod => pressureAdmission(pod, conditions),
    async synchronize() {
      const { summary, runtimeError } = await o.collect();
      const obs = observe(summary);
      const now = o.now();
      const d = decide(o.thresholds, state, obs, now, o.transitionPeriodMs);
      state = d.state;
      conditions = d.conditions;
      for (const uid of [...evicted]) if (!o.pods().some(p => p.metadata.uid === uid)) evicted.delete(uid);
      if (runtimeError) return;
      const byUid = new Map(summary.pods.map(p => [p.podRef.uid, p]));
      const stats = (p: Pod): PodStatsJson | undefined => byUid.get(p.metadata.uid);

      const pods = active();
      const violations = localStorageViolations(pods, stats);
      if (violations.length) {
        await Promise.all(violations.map(v => evict(v.pod, 1, v.message)));
        return;
      }
      const t = d.act[0];
      if (!t) return;
      const resource = signalResource[t.signal];
      o.nodeEvent?.('EvictionThresholdMet', `Attempting to reclaim ${resource}`);
      if (diskSignals.has(t.signal) && o.reclaim) {
        await o.reclaim(t.signal).catch(err => log.warn('node-level reclaim failed', { signal: t.signal, err: String(err) }));
        const after = await o.collect();
        if (thresholdsMet(o.thresholds, observe(after.summary), true).length === 0) {
          log.info('pressure relieved without evicting pods', { resource });
          return;
        }
      }
      if (pods.length === 0) {
        log.warn('eviction thresholds have been met, but no pods are active to evict', { signal: t.signal });
        return;
      }
      for (const pod of rankPods(pods, t.signal, stats)) {
        const message = evictionMessage(pod, t.signal, d.act, obs, stats(pod));
        const condition: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message, lastProbeTime: null, lastTransitionTime: rfc3339(now) };
        if (await evict(pod, evictionGracePeriod(t, o.maxPodGracePeriodSeconds), message, condition)) return;
      }
      log.warn('unable to evict any pods from the node', { signal: t.signal });
    },
  };
}
