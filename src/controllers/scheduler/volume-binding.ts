// The VolumeBinding plugin's decisions, as the default scheduler makes them. PreFilter: every
// claim the pod names must exist and not be going; a claim not yet bound whose class binds
// immediately means the pod waits for the binder. Filter, per node: a bound claim's volume must be
// reachable from the node; a claim whose class waits for its first consumer needs either a free
// volume reachable from the node or a provisioner to make one there. The plan of the chosen node
// is what PreBind then writes: volumes pre-bound to claims, and claims marked with the node.

import type { CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import { annBindCompleted, annSelectedNode, delaysBinding, requestedBytes, type Claim, type StorageClass, type Volume } from '../volumes/claims.ts';
import { claimsOfPod } from '../volumes/claim-users.ts';
import { ownedByPod } from '../volumes/ephemeral.ts';
import { findMatchingVolume, volumeReachableFrom } from '../volumes/match.ts';
import type { Failure } from './filters.ts';

export interface VolumeWorld {
  claim(namespace: string, name: string): Claim | undefined;
  volume(name: string): Volume | undefined;
  volumes(): Iterable<Volume>;
  storageClass(name: string): StorageClass | undefined;
  /** volumes promised to claims by binds in flight */
  assumed?: Set<string>;
}

export const reasonBindConflict = "node(s) didn't find available persistent volumes to bind";
export const reasonNodeConflict = 'node(s) had volume node affinity conflict';
export const reasonVolumeMissing = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** the pod's claims sorted out, or why the pod cannot be scheduled anywhere */
export type PodClaims = { bound: Claim[]; delayed: Claim[] } | { error: string };

export const claimFullyBound = (c: Claim) => !!c.spec?.volumeName && c.metadata.annotations?.[annBindCompleted] !== undefined;

export function podClaims(pod: CoreV1Pod, w: VolumeWorld): PodClaims {
  const ns = pod.metadata?.namespace ?? 'default';
  const bound: Claim[] = [], delayed: Claim[] = [];
  let immediate = false;
  const ephemeral = new Set((pod.spec?.volumes ?? []).filter(v => v.ephemeral).map(v => `${pod.metadata?.name}-${v.name}`));
  for (const name of claimsOfPod(pod)) {
    const c = w.claim(ns, name);
    if (!c) return { error: ephemeral.has(name) ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` : `persistentvolumeclaim "${name}" not found` };
    if (ephemeral.has(name) && !ownedByPod(c, pod)) return { error: `persistentvolumeclaim "${name}" was not created for the pod` };
    if (c.metadata.deletionTimestamp) return { error: `persistentvolumeclaim "${name}" is being deleted` };
    if (claimFullyBound(c)) bound.push(c);
    else if (delaysBinding(c, n => w.storageClass(n))) delayed.push(c);
    else immediate = true;
  }
  if (immediate) return { error: 'pod has unbound immediate PersistentVolumeClaims' };
  return { bound, delayed };
}

/** what binding the pod's volumes on one node takes */
export interface VolumePlan {
  /** claim key → the free volume it gets */
  bind: Array<{ claim: Claim; volume: Volume }>;
  /** claims a provisioner will make a volume for on the node */
  provision: Claim[];
}

const unresolvable = (reason: string): Failure => ({ reason, resolvable: false });

export function planVolumes(claims: { bound: Claim[]; delayed: Claim[] }, node: CoreV1Node, w: VolumeWorld): { plan: VolumePlan } | { failure: Failure } {
  for (const c of claims.bound) {
    const v = w.volume(c.spec!.volumeName!);
    if (!v) return { failure: unresolvable(reasonVolumeMissing) };
    if (!volumeReachableFrom(v, node)) return { failure: unresolvable(reasonNodeConflict) };
  }
  const plan: VolumePlan = { bind: [], provision: [] };
  const taken = new Set(w.assumed ?? []);
  // larger claims choose first, so that a small claim does not take the only volume a larger one fits
  const bySize = [...claims.delayed].sort((a, b) => sizeOf(b) - sizeOf(a));
  for (const c of bySize) {
    const selected = c.metadata.annotations?.[annSelectedNode];
    if (selected !== undefined && selected !== node.metadata?.name) return { failure: unresolvable(reasonBindConflict) };
    const v = selected === undefined ? findMatchingVolume(c, w.volumes(), { node, delayBinding: true, excluded: taken }) : undefined;
    if (v) { taken.add(v.metadata.name!); plan.bind.push({ claim: c, volume: v }); continue; }
    const sc = w.storageClass(c.spec?.storageClassName ?? '');
    if (!sc?.provisioner || sc.provisioner === 'kubernetes.io/no-provisioner') return { failure: unresolvable(reasonBindConflict) };
    plan.provision.push(c);
  }
  return { plan };
}

const sizeOf = (c: Claim) => requestedBytes(c);
