// A Deployment's status as Kubernetes' deployment controller writes it: counts summed over its
// ReplicaSets, the Available condition (MinimumReplicasAvailable/Unavailable), and the
// Progressing condition's course (NewReplicaSetCreated, FoundNewReplicaSet, ReplicaSetUpdated,
// NewReplicaSetAvailable, ProgressDeadlineExceeded, DeploymentPaused/Resumed), with
// Kubernetes' messages. Pure: the clock is passed in.

import { rfc3339 } from '../../api/time.ts';
import type { AppsV1DeploymentCondition, AppsV1DeploymentStatus } from '../../schema/generated/types.ts';
import { desiredReplicas, maxUnavailable, sumSpecReplicas, sumStatus } from './rollout-math.ts';
import type { DeploymentLike, ReplicaSetLike } from './types.ts';

export const reasons = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumAvailable: 'MinimumReplicasAvailable',
  minimumUnavailable: 'MinimumReplicasUnavailable',
} as const;

export type Condition = AppsV1DeploymentCondition;

export function newCondition(type: string, status: string, reason: string, message: string, now: number): Condition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(status: AppsV1DeploymentStatus | undefined, type: string): Condition | undefined {
  return status?.conditions?.find(c => c.type === type);
}

/** Kubernetes' SetDeploymentCondition: no change for the same status and reason; the transition time kept while the status holds */
export function setCondition(status: AppsV1DeploymentStatus, c: Condition): void {
  const cur = getCondition(status, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  if (cur && cur.status === c.status) c = { ...c, lastTransitionTime: cur.lastTransitionTime };
  status.conditions = [...(status.conditions ?? []).filter(x => x.type !== c.type), c];
}

export function removeCondition(status: AppsV1DeploymentStatus, type: string): void {
  const rest = (status.conditions ?? []).filter(x => x.type !== type);
  status.conditions = rest.length ? rest : undefined;
}

export function hasProgressDeadline(d: DeploymentLike): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== 2147483647;
}

/** Kubernetes' GetTerminatingReplicaCountForReplicaSets: undefined while a ReplicaSet has not reported it */
function terminatingReplicas(rss: ReplicaSetLike[]): number | undefined {
  let n = 0;
  for (const rs of rss) {
    const t = rs.status?.terminatingReplicas;
    if (t === undefined || t === null) {
      if ((rs.status?.observedGeneration ?? 0) === 0) continue;
      return undefined;
    }
    n += t;
  }
  return n;
}

/** Kubernetes' calculateStatus */
export function calculateStatus(d: DeploymentLike, allRSs: ReplicaSetLike[], newRS: ReplicaSetLike | undefined, now: number): AppsV1DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas');
  const status: AppsV1DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: sumStatus(allRSs, 'replicas'),
    updatedReplicas: sumStatus([newRS], 'replicas'),
    readyReplicas: sumStatus(allRSs, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, sumSpecReplicas(allRSs) - available),
    collisionCount: d.status?.collisionCount,
    conditions: d.status?.conditions?.map(c => ({ ...c })),
  };
  const terminating = terminatingReplicas(allRSs);
  if (terminating !== undefined) status.terminatingReplicas = terminating;
  if (available >= desiredReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', reasons.minimumAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', reasons.minimumUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

export function deploymentComplete(d: DeploymentLike, s: AppsV1DeploymentStatus): boolean {
  const want = desiredReplicas(d);
  return s.updatedReplicas === want && s.replicas === want && s.availableReplicas === want && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** progress since the status last written: more updated, fewer old, more ready or more available */
export function deploymentProgressing(d: DeploymentLike, s: AppsV1DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld
    || (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

export function deploymentTimedOut(d: DeploymentLike, s: AppsV1DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c) return false;
  if (c.reason === reasons.newRSAvailable) return false;
  if (c.reason === reasons.timedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return Number.isFinite(from) && from + (d.spec!.progressDeadlineSeconds! * 1000) < now;
}

const rsOrDeployment = (d: DeploymentLike, newRS: ReplicaSetLike | undefined) => (newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`);

/**
 * Kubernetes' syncRolloutStatus: the status with the Progressing condition moved along, and
 * the ReplicaFailure of a ReplicaSet raised to the Deployment.
 */
export function rolloutStatus(d: DeploymentLike, allRSs: ReplicaSetLike[], newRS: ReplicaSetLike | undefined, now: number): AppsV1DeploymentStatus {
  const s = calculateStatus(d, allRSs, newRS, now);
  if (!hasProgressDeadline(d)) removeCondition(s, 'Progressing');
  const current = getCondition(d.status, 'Progressing');
  const complete = s.replicas === s.updatedReplicas && current?.reason === reasons.newRSAvailable;
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, s)) {
      setCondition(s, newCondition('Progressing', 'True', reasons.newRSAvailable, `${rsOrDeployment(d, newRS)} has successfully progressed.`, now));
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition('Progressing', 'True', reasons.replicaSetUpdated, `${rsOrDeployment(d, newRS)} is progressing.`, now);
      // progress moves lastUpdateTime even with the same reason
      if (current) {
        if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        removeCondition(s, 'Progressing');
      }
      setCondition(s, c);
    } else if (deploymentTimedOut(d, s, now)) {
      setCondition(s, newCondition('Progressing', 'False', reasons.timedOut, `${rsOrDeployment(d, newRS)} has timed out progressing.`, now));
    }
  }
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(s, failure);
  else removeCondition(s, 'ReplicaFailure');
  return s;
}

/** the first ReplicaFailure among the ReplicaSets, the new one looked at first */
function replicaFailure(allRSs: ReplicaSetLike[], newRS: ReplicaSetLike | undefined): Condition | undefined {
  const look = (rs: ReplicaSetLike | undefined) => rs?.status?.conditions?.find(c => c.type === 'ReplicaFailure');
  const c = look(newRS) ?? allRSs.filter(rs => rs !== newRS).map(look).find(Boolean);
  return c ? { type: c.type, status: c.status, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message } : undefined;
}

/** Kubernetes' checkPausedConditions: the condition a pause or resume sets, if any */
export function pausedCondition(d: DeploymentLike, now: number): Condition | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const c = getCondition(d.status, 'Progressing');
  if (c?.reason === reasons.timedOut) return undefined;
  const pausedNoted = c?.reason === reasons.paused;
  if (d.spec?.paused && !pausedNoted) return newCondition('Progressing', 'Unknown', reasons.paused, 'Deployment is paused', now);
  if (!d.spec?.paused && pausedNoted) return newCondition('Progressing', 'Unknown', reasons.resumed, 'Deployment is resumed', now);
  return undefined;
}

/** when a rollout still in progress runs out of its deadline, for a look then (ms from now) */
export function stuckRecheckMs(d: DeploymentLike, s: AppsV1DeploymentStatus, now: number): number | undefined {
  const c = getCondition(s, 'Progressing');
  if (!hasProgressDeadline(d) || !c || c.reason === reasons.newRSAvailable || c.reason === reasons.timedOut) return undefined;
  if (deploymentComplete(d, s)) return undefined;
  const from = Date.parse(c.lastUpdateTime ?? '');
  if (!Number.isFinite(from)) return undefined;
  return Math.max(0, from + d.spec!.progressDeadlineSeconds! * 1000 - now) + 1000;
}
