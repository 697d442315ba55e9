// The numbers of a rollout, as Kubernetes' deployment util computes them: maxSurge rounds a
// percentage up and maxUnavailable rounds it down (both 0 means 1 unavailable), how far the new
// ReplicaSet may grow, and each ReplicaSet's share when a Deployment is resized mid-rollout. Pure.

import type { IntOrString } from '../../schema/generated/types.ts';
import type { DeploymentLike, ReplicaSetLike } from './types.ts';

/** Kubernetes' GetScaledValueFromIntOrPercent */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(v);
  if (!m) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** Kubernetes' ResolveFenceposts: [surge, unavailable] */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): [number, number] {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  // both zero would let nothing move: one pod may be unavailable
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

export const isRollingUpdate = (d: DeploymentLike) => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
export const desiredReplicas = (d: DeploymentLike) => d.spec?.replicas ?? 1;
export const specReplicas = (rs: ReplicaSetLike | undefined) => rs?.spec?.replicas ?? 0;

export function maxSurge(d: DeploymentLike): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, desiredReplicas(d))[0];
}

export function maxUnavailable(d: DeploymentLike): number {
  const replicas = desiredReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  const unavailable = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas)[1];
  return Math.min(unavailable, replicas);
}

export const sumSpecReplicas = (rss: Array<ReplicaSetLike | undefined>) => rss.reduce((n, rs) => n + specReplicas(rs), 0);
export const sumStatus = (rss: Array<ReplicaSetLike | undefined>, field: 'replicas' | 'readyReplicas' | 'availableReplicas') => rss.reduce((n, rs) => n + (rs?.status?.[field] ?? 0), 0);

/** Kubernetes' NewRSNewReplicas: how many replicas the new ReplicaSet may have now */
export function newRSNewReplicas(d: DeploymentLike, allRSs: ReplicaSetLike[], newRS: ReplicaSetLike): number {
  if (!isRollingUpdate(d)) return desiredReplicas(d);
  const current = sumSpecReplicas(allRSs);
  const maxTotal = desiredReplicas(d) + maxSurge(d);
  if (current >= maxTotal) return specReplicas(newRS);
  const up = Math.min(maxTotal - current, desiredReplicas(d) - specReplicas(newRS));
  return specReplicas(newRS) + up;
}

/** Go's integer.RoundToInt32: halves away from zero */
function roundToInt(x: number): number {
  return x < 0 ? Math.trunc(x - 0.5) : Math.trunc(x + 0.5);
}

/** Kubernetes' getReplicaSetFraction */
function fraction(rs: ReplicaSetLike, d: DeploymentLike, maxReplicasAnnotation: number | undefined): number {
  if (desiredReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = desiredReplicas(d) + maxSurge(d);
  const annotated = maxReplicasAnnotation ?? d.status?.replicas ?? 0;
  if (!annotated) return 0;
  return roundToInt((specReplicas(rs) * deploymentReplicas) / annotated) - specReplicas(rs);
}

/** Kubernetes' GetReplicaSetProportion: this ReplicaSet's part of toAdd, given what is added so far */
export function proportion(rs: ReplicaSetLike, d: DeploymentLike, toAdd: number, added: number, maxReplicasAnnotation: number | undefined): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const f = fraction(rs, d, maxReplicasAnnotation);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}
