// Who owns a StatefulSet's claims under persistentVolumeClaimRetentionPolicy: whenDeleted
// Delete puts the set as owner (the garbage collector takes the claim with the set),
// whenScaled Delete puts the pod as owner once its ordinal is scaled away (the claim goes with
// the pod). Retain leaves the claim to the user. A claim another controller owns is left
// alone. Pure, as Kubernetes' isClaimOwnerUpToDate/updateClaimOwnerRefForSetAndPod decide it.

import type { CoreV1PersistentVolumeClaim, CoreV1Pod, MetaV1OwnerReference } from '../../schema/generated/types.ts';
import { controllerRefTo } from '../owner-refs.ts';
import { inOrdinalRange, type StatefulSet } from './identity.ts';

type Policy = 'Retain' | 'Delete';

export function retentionPolicy(set: StatefulSet): { whenDeleted: Policy; whenScaled: Policy } {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted === 'Delete' ? 'Delete' : 'Retain', whenScaled: p?.whenScaled === 'Delete' ? 'Delete' : 'Retain' };
}

const isSetRef = (r: MetaV1OwnerReference, set: StatefulSet) => r.apiVersion === 'apps/v1' && r.kind === 'StatefulSet' && r.name === set.metadata.name;
const isPodRef = (r: MetaV1OwnerReference, pod: CoreV1Pod) => r.apiVersion === 'v1' && r.kind === 'Pod' && r.name === pod.metadata?.name;

/**
 * The owner references the claim should have, or undefined when it is right as it is (or is
 * not ours to touch: a reference to an earlier set or pod of the same name, or another controller).
 */
export function claimOwnersWanted(claim: CoreV1PersistentVolumeClaim, set: StatefulSet, pod: CoreV1Pod): MetaV1OwnerReference[] | undefined {
  const refs = claim.metadata?.ownerReferences ?? [];
  const stale = refs.some(r => (isSetRef(r, set) && r.uid !== set.metadata.uid) || (isPodRef(r, pod) && r.uid !== pod.metadata?.uid));
  if (stale) return undefined;
  const policy = retentionPolicy(set);
  const others = refs.filter(r => !isSetRef(r, set) && !isPodRef(r, pod));
  const otherController = others.some(r => r.controller);
  const wantSet = !otherController && policy.whenDeleted === 'Delete' && (policy.whenScaled === 'Retain' || inOrdinalRange(pod, set));
  const wantPod = !otherController && policy.whenScaled === 'Delete' && !inOrdinalRange(pod, set) && !!pod.metadata?.uid;
  const hasSet = refs.find(r => isSetRef(r, set));
  const hasPod = refs.find(r => isPodRef(r, pod));
  const upToDate = !!hasSet === wantSet && !!hasPod === wantPod && (!hasSet || hasSet.controller) && (!hasPod || hasPod.controller);
  if (upToDate) return undefined;
  const out = [...others];
  if (wantSet) out.push(controllerRefTo({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: set.metadata }));
  if (wantPod) out.push(controllerRefTo({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.metadata!.name!, uid: pod.metadata!.uid } }));
  return out;
}
