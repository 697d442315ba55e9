// What a graceful node shutdown does, decided without I/O: the grace period of each priority
// range (from shutdownGracePeriodByPodPriority, or shutdownGracePeriod split into regular and
// critical pods), which range each pod falls in, the grace period each pod gets, and the status
// a pod ended this way carries — as the kubelet's shutdown manager decides them.

import { systemCriticalPriority } from '../../api/priority-classes.ts';
import { parseDuration } from '../../api/duration.ts';
import { rfc3339 } from '../../api/time.ts';
import type { PodCondition } from '../pods/pod-syncer.ts';
import type { Pod } from '../pods/types.ts';

/** one entry of shutdownGracePeriodByPodPriority */
export interface PriorityGracePeriod { priority: number; shutdownGracePeriodSeconds: number }

export interface ShutdownSettings {
  shutdownGracePeriod?: string;
  shutdownGracePeriodCriticalPods?: string;
  shutdownGracePeriodByPodPriority?: PriorityGracePeriod[];
}

export interface ShutdownGroup extends PriorityGracePeriod { pods: Pod[] }

/** what a pod ended by the shutdown shows: status.reason and status.message */
export const nodeShutdownReason = 'Terminated';
export const nodeShutdownMessage = 'Pod was terminated in response to imminent node shutdown.';
/** a pod offered to the node while it shuts down is refused with these */
export const nodeShutdownNotAdmittedReason = 'NodeShutdown';
export const nodeShutdownNotAdmittedMessage = 'Pod was rejected as the node is shutting down.';
/** the Ready condition's message while the node shuts down (the shutdown manager's status error) */
export const nodeShuttingDown = 'node is shutting down';

/**
 * The priority ranges, lowest priority first. shutdownGracePeriodByPodPriority when given (and
 * its gate on); otherwise shutdownGracePeriod becomes two ranges: priority 0 and up gets the
 * period less the critical pods' share, system-critical priority and up gets that share. Empty:
 * no graceful shutdown.
 */
export function shutdownPeriods(s: ShutdownSettings, byPriorityGate = true): PriorityGracePeriod[] {
  let periods = byPriorityGate ? s.shutdownGracePeriodByPodPriority ?? [] : [];
  if (periods.length === 0) {
    const total = Math.trunc(parseDuration(s.shutdownGracePeriod ?? '0s') / 1000);
    const critical = Math.trunc(parseDuration(s.shutdownGracePeriodCriticalPods ?? '0s') / 1000);
    if (total <= 0 || total - critical < 0) return [];
    periods = [
      { priority: 0, shutdownGracePeriodSeconds: total - critical },
      { priority: systemCriticalPriority, shutdownGracePeriodSeconds: critical },
    ];
  }
  return [...periods].sort((a, b) => a.priority - b.priority);
}

/** the delay the inhibitor lock must be allowed: every range's period, one after the other */
export function periodRequestedSeconds(periods: PriorityGracePeriod[]): number {
  return periods.reduce((sum, p) => sum + p.shutdownGracePeriodSeconds, 0);
}

/**
 * Pods by range: a pod belongs to the highest range whose priority is at or below its own;
 * pods below the lowest range go with the lowest, above the highest with the highest.
 */
export function groupByPriority(periods: PriorityGracePeriod[], pods: Pod[]): ShutdownGroup[] {
  const groups: ShutdownGroup[] = periods.map(p => ({ ...p, pods: [] }));
  if (groups.length === 0) return groups;
  for (const pod of pods) {
    const priority = pod.spec.priority ?? 0;
    let index = 0;
    for (let i = 0; i < groups.length; i++) if (groups[i]!.priority <= priority) index = i;
    groups[index]!.pods.push(pod);
  }
  return groups;
}

/** the range's period, or the pod's own terminationGracePeriodSeconds where that is shorter */
export function podShutdownGracePeriod(pod: Pod, group: PriorityGracePeriod): number {
  const own = pod.spec.terminationGracePeriodSeconds;
  return own !== undefined && own !== null && own <= group.shutdownGracePeriodSeconds ? own : group.shutdownGracePeriodSeconds;
}

/** the status a pod ended by the shutdown gets: Failed, Terminated, and the DisruptionTarget condition */
export function shutdownFailure(nowMs: number): { reason: string; message: string; condition: PodCondition } {
  return {
    reason: nodeShutdownReason,
    message: nodeShutdownMessage,
    condition: { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: nodeShutdownMessage, lastProbeTime: null, lastTransitionTime: rfc3339(nowMs) },
  };
}
