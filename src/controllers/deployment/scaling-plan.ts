// Which ReplicaSets a Deployment resizes, and to what, as Kubernetes' deployment controller
// decides: the new ReplicaSet found by template, a resize spread over active ReplicaSets in
// proportion, old ReplicaSets scaled down within maxUnavailable (unhealthy replicas first), and
// the old ReplicaSets beyond revisionHistoryLimit. Each function returns steps; the controller
// sends them. Pure.

import { desiredReplicasOf, maxReplicasOf, revisionOf } from './annotations.ts';
import { desiredReplicas, isRollingUpdate, maxSurge, maxUnavailable, newRSNewReplicas, proportion, specReplicas, sumSpecReplicas, sumStatus } from './rollout-math.ts';
import { equalIgnoreHash } from './template-hash.ts';
import type { DeploymentLike, ReplicaSetLike } from './types.ts';

/** one resize; `direction` is the event's word where a proportional resize sets it for all */
export interface ScaleStep { rs: ReplicaSetLike; to: number; direction?: 'up' | 'down' }

const created = (rs: ReplicaSetLike) => Date.parse(rs.metadata.creationTimestamp ?? '') || 0;

/** Kubernetes' ReplicaSetsByCreationTimestamp: oldest first, then by name */
export function byCreation(a: ReplicaSetLike, b: ReplicaSetLike): number {
  const d = created(a) - created(b);
  return d !== 0 ? d : a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** larger first; equal sizes newest first (scaling up) or oldest first (scaling down) */
const bySize = (newerFirst: boolean) => (a: ReplicaSetLike, b: ReplicaSetLike) =>
  specReplicas(b) - specReplicas(a) || (newerFirst ? byCreation(b, a) : byCreation(a, b));

/** Kubernetes' ReplicaSetsByRevision: lowest revision first, creation order for ties or unreadable ones */
export function byRevision(a: ReplicaSetLike, b: ReplicaSetLike): number {
  const ra = revisionOf(a), rb = revisionOf(b);
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b);
  return ra - rb;
}

export const isActive = (rs: ReplicaSetLike | undefined): rs is ReplicaSetLike => !!rs && specReplicas(rs) > 0;

/** the oldest ReplicaSet whose template is the Deployment's */
export function findNewReplicaSet(d: DeploymentLike, rss: ReplicaSetLike[]): ReplicaSetLike | undefined {
  return rss.slice().sort(byCreation).find(rs => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

export function findOldReplicaSets(d: DeploymentLike, rss: ReplicaSetLike[]): ReplicaSetLike[] {
  const newRS = findNewReplicaSet(d, rss);
  return rss.filter(rs => rs.metadata.uid !== newRS?.metadata.uid);
}

/** the one active ReplicaSet (or the newest when none is active); undefined when several are */
export function findActiveOrLatest(newRS: ReplicaSetLike | undefined, oldRSs: ReplicaSetLike[]): ReplicaSetLike | undefined {
  if (!newRS && !oldRSs.length) return undefined;
  const olds = oldRSs.slice().sort((a, b) => byCreation(b, a));
  const active = [...olds, newRS].filter(isActive);
  if (active.length === 0) return newRS ?? olds[0];
  return active.length === 1 ? active[0] : undefined;
}

export function isSaturated(d: DeploymentLike, rs: ReplicaSetLike | undefined): boolean {
  if (!rs) return false;
  const want = desiredReplicas(d);
  return specReplicas(rs) === want && desiredReplicasOf(rs) === want && (rs.status?.availableReplicas ?? 0) === want;
}

/** a resize of the Deployment (not a template change): an active ReplicaSet records another size */
export function isScalingEvent(d: DeploymentLike, newRS: ReplicaSetLike | undefined, oldRSs: ReplicaSetLike[]): boolean {
  for (const rs of [...oldRSs, newRS].filter(isActive)) {
    const desired = desiredReplicasOf(rs);
    if (desired !== undefined && desired !== desiredReplicas(d)) return true;
  }
  return false;
}

/** Kubernetes' scale(): the steps of a resize */
export function planResize(d: DeploymentLike, newRS: ReplicaSetLike | undefined, oldRSs: ReplicaSetLike[]): ScaleStep[] {
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only) return specReplicas(only) === desiredReplicas(d) ? [] : [{ rs: only, to: desiredReplicas(d) }];
  if (isSaturated(d, newRS)) return oldRSs.filter(isActive).map(rs => ({ rs, to: 0 }));
  if (!isRollingUpdate(d)) return [];
  const all = [...oldRSs, newRS].filter(isActive);
  const allowed = desiredReplicas(d) > 0 ? desiredReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowed - sumSpecReplicas(all);
  const direction = toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : undefined;
  if (toAdd !== 0) all.sort(bySize(toAdd > 0));
  let added = 0;
  const sizes = all.map(rs => {
    if (toAdd === 0) return specReplicas(rs);
    const p = proportion(rs, d, toAdd, added, maxReplicasOf(rs));
    added += p;
    return specReplicas(rs) + p;
  });
  // what rounding left over goes to the largest
  if (toAdd !== 0 && sizes.length) sizes[0] = Math.max(0, sizes[0]! + toAdd - added);
  return all.map((rs, i) => ({ rs, to: sizes[i]!, direction }));
}

/** Kubernetes' reconcileNewReplicaSet: the new ReplicaSet's next size, undefined when it stays */
export function planNewReplicaSet(d: DeploymentLike, allRSs: ReplicaSetLike[], newRS: ReplicaSetLike): number | undefined {
  const want = desiredReplicas(d);
  if (specReplicas(newRS) === want) return undefined;
  if (specReplicas(newRS) > want) return want;
  const next = newRSNewReplicas(d, allRSs, newRS);
  return next === specReplicas(newRS) ? undefined : next;
}

/**
 * Kubernetes' reconcileOldReplicaSets: first old replicas that are not available go (they cost
 * no availability), then old ReplicaSets shrink while more than the minimum are available.
 */
export function planOldReplicaSets(d: DeploymentLike, allRSs: ReplicaSetLike[], activeOldRSs: ReplicaSetLike[], newRS: ReplicaSetLike): ScaleStep[] {
  if (sumSpecReplicas(activeOldRSs) === 0) return [];
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = sumSpecReplicas(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const steps: ScaleStep[] = [];
  const size = new Map(activeOldRSs.map(rs => [rs.metadata.uid, specReplicas(rs)]));
  const olds = activeOldRSs.slice().sort(byCreation);

  let cleaned = 0;
  for (const rs of olds) {
    if (cleaned >= maxScaledDown) break;
    const n = size.get(rs.metadata.uid)!;
    const available = rs.status?.availableReplicas ?? 0;
    if (n === 0 || n === available) continue;
    const down = Math.min(maxScaledDown - cleaned, n - available);
    size.set(rs.metadata.uid, n - down);
    steps.push({ rs, to: n - down });
    cleaned += down;
  }

  // availability is read from status, which the cleanup above has not changed yet
  const available = sumStatus([...activeOldRSs, newRS], 'availableReplicas');
  if (available > minAvailable) {
    const total = available - minAvailable;
    let done = 0;
    for (const rs of olds) {
      if (done >= total) break;
      const n = size.get(rs.metadata.uid)!;
      if (n === 0) continue;
      const down = Math.min(n, total - done);
      size.set(rs.metadata.uid, n - down);
      steps.push({ rs, to: n - down });
      done += down;
    }
  }
  return steps;
}

/** old ReplicaSets to delete beyond revisionHistoryLimit: empty ones, lowest revisions first */
export function planHistoryCleanup(d: DeploymentLike, oldRSs: ReplicaSetLike[]): ReplicaSetLike[] {
  const limit = d.spec?.revisionHistoryLimit;
  if (limit === undefined || limit === null || limit === 2147483647) return [];
  const alive = oldRSs.filter(rs => !rs.metadata.deletionTimestamp);
  const diff = alive.length - limit;
  if (diff <= 0) return [];
  return alive.sort(byRevision).slice(0, diff).filter(rs =>
    (rs.status?.replicas ?? 0) === 0 && specReplicas(rs) === 0 && (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0));
}
