// The annotations a Deployment and its ReplicaSets carry: the revision (and the revisions a
// ReplicaSet served before a rollback brought it back), the desired and max replicas that tell
// a resize from a rollout, and the Deployment's own annotations copied to its new ReplicaSet
// (kubectl rollout history shows change-cause from there). Pure: functions change the copy given.

import type { DeploymentLike, ReplicaSetLike } from './types.ts';
import { desiredReplicas, maxSurge } from './rollout-math.ts';

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
const rollbackToAnnotation = 'deprecated.deployment.rollback.to';

/** kube-controller-manager's default bound on the revision-history annotation */
export const maxRevisionHistoryChars = 2000;

const notCopied = new Set([lastAppliedAnnotation, revisionAnnotation, revisionHistoryAnnotation, desiredReplicasAnnotation, maxReplicasAnnotation, rollbackToAnnotation]);

/** a Go-parsable revision, 0 when absent, undefined when unreadable */
export function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } } | undefined): number | undefined {
  const v = obj?.metadata?.annotations?.[revisionAnnotation];
  if (v === undefined || v === '') return 0;
  return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: ReplicaSetLike[]): number {
  let max = 0;
  for (const rs of rss) { const r = revisionOf(rs); if (r !== undefined && r > max) max = r; }
  return max;
}

function intAnnotation(rs: ReplicaSetLike, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export const desiredReplicasOf = (rs: ReplicaSetLike) => intAnnotation(rs, desiredReplicasAnnotation);
export const maxReplicasOf = (rs: ReplicaSetLike) => intAnnotation(rs, maxReplicasAnnotation);

/** sets desired-replicas and max-replicas; true when either changed */
export function setReplicasAnnotations(rs: ReplicaSetLike, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ??= {};
  let changed = false;
  if (a[desiredReplicasAnnotation] !== String(desired)) { a[desiredReplicasAnnotation] = String(desired); changed = true; }
  if (a[maxReplicasAnnotation] !== String(max)) { a[maxReplicasAnnotation] = String(max); changed = true; }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSetLike, d: DeploymentLike): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[desiredReplicasAnnotation] !== String(desiredReplicas(d)) || a[maxReplicasAnnotation] !== String(desiredReplicas(d) + maxSurge(d));
}

/**
 * Kubernetes' SetNewReplicaSetAnnotations: the Deployment's annotations copied, the revision
 * raised to newRevision (keeping the old one in revision-history when a rollback reuses the
 * ReplicaSet), replica annotations on a ReplicaSet about to be created. True when anything changed.
 */
export function setNewReplicaSetAnnotations(d: DeploymentLike, rs: ReplicaSetLike, newRevision: number, exists: boolean): boolean {
  const a = rs.metadata.annotations ??= {};
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (notCopied.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const had = revisionAnnotation in a;
  const oldRevision = a[revisionAnnotation] ?? '';
  const oldInt = oldRevision === '' ? 0 : /^[+-]?\d+$/.test(oldRevision) ? Number(oldRevision) : undefined;
  if (oldInt === undefined) return false;
  if (oldInt < newRevision) {
    a[revisionAnnotation] = String(newRevision);
    changed = true;
    if (had) {
      const history = a[revisionHistoryAnnotation] ?? '';
      if (!history) a[revisionHistoryAnnotation] = oldRevision;
      else {
        const old = history.split(',');
        let total = history.length + oldRevision.length + 1;
        let start = 0;
        while (total > maxRevisionHistoryChars && start < old.length) total -= old[start++]!.length + 1;
        if (total <= maxRevisionHistoryChars) a[revisionHistoryAnnotation] = [...old.slice(start), oldRevision].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, desiredReplicas(d), desiredReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}
