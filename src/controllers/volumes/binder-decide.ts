// What the persistentvolume-binder does with one claim or one volume, decided from what its
// informers hold: kube-controller-manager's syncUnboundClaim/syncBoundClaim and syncVolume as
// pure functions. The controller carries the answers out through the API.

import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';
import { annBindCompleted, annBoundByController, annProvisionedBy, annSelectedNode, claimClass, delaysBinding, hasAnnotation, type StorageClass } from './claims.ts';
import { findMatchingVolume, volumeModeMismatch, volumeUnfitForClaim } from './match.ts';

export interface BinderEvent { type: 'Normal' | 'Warning'; reason: string; message: string }

export type ClaimAction =
  | { kind: 'none' }
  | { kind: 'assignClass'; className: string }
  | { kind: 'bind'; volume: string }
  | { kind: 'pending'; event?: BinderEvent }
  | { kind: 'provision'; provisioner: string; event: BinderEvent }
  | { kind: 'lost'; event: BinderEvent };

export interface ClaimWorld {
  volume(name: string): CoreV1PersistentVolume | undefined;
  volumes(): Iterable<CoreV1PersistentVolume>;
  storageClass(name: string): StorageClass | undefined;
  defaultClass(): StorageClass | undefined;
  /** names of pods using the claim that are not on a node yet */
  unscheduledUsers(c: CoreV1PersistentVolumeClaim): string[];
}

const pending = (event?: BinderEvent): ClaimAction => ({ kind: 'pending', event });

function waitingEvent(c: CoreV1PersistentVolumeClaim, w: ClaimWorld): BinderEvent {
  const pods = w.unscheduledUsers(c);
  if (pods.length === 0) return { type: 'Normal', reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' };
  return { type: 'Normal', reason: 'WaitForPodScheduled', message: pods.length > 1 ? `waiting for pods ${pods.join(',')} to be scheduled` : `waiting for pod ${pods[0]} to be scheduled` };
}

export function externalProvisioningEvent(provisioner: string): BinderEvent {
  return {
    type: 'Normal', reason: 'ExternalProvisioning',
    message: `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
  };
}

function decideUnbound(c: CoreV1PersistentVolumeClaim, w: ClaimWorld): ClaimAction {
  const classes = (n: string) => w.storageClass(n);
  const requested = c.spec?.volumeName;
  if (!requested) {
    const delay = delaysBinding(c, classes);
    const v = findMatchingVolume(c, w.volumes(), { delayBinding: delay });
    if (v) return { kind: 'bind', volume: v.metadata!.name! };
    // claims made before a default class existed get it now (retroactive default class)
    if (c.spec?.storageClassName == null && !c.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class']) {
      const d = w.defaultClass();
      if (d) return { kind: 'assignClass', className: d.metadata!.name! };
    }
    if (delay && !hasAnnotation(c, annSelectedNode)) return pending(waitingEvent(c, w));
    const cls = claimClass(c);
    if (cls) {
      const sc = w.storageClass(cls);
      // a class that does not exist (yet): the claim waits, as the binder's provisionClaim does
      if (!sc) return pending({ type: 'Warning', reason: 'ProvisioningFailed', message: `storageclass.storage.k8s.io "${cls}" not found` });
      if (sc.provisioner === 'kubernetes.io/no-provisioner') return pending({ type: 'Normal', reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set' });
      return { kind: 'provision', provisioner: sc.provisioner ?? '', event: externalProvisioningEvent(sc.provisioner ?? '') };
    }
    return pending({ type: 'Normal', reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set' });
  }
  const v = w.volume(requested);
  if (!v) return pending();
  if (!v.spec?.claimRef) {
    const why = volumeUnfitForClaim(v, c);
    if (why) return pending({ type: 'Warning', reason: 'VolumeMismatch', message: `Cannot bind to requested volume "${requested}": ${why}` });
    return { kind: 'bind', volume: requested };
  }
  const ref = v.spec.claimRef;
  if (ref.name === c.metadata?.name && ref.namespace === c.metadata?.namespace && (!ref.uid || ref.uid === c.metadata?.uid)) return { kind: 'bind', volume: requested };
  return pending({ type: 'Warning', reason: 'FailedBinding', message: `volume "${requested}" already bound to a different claim.` });
}

function decideBound(c: CoreV1PersistentVolumeClaim, w: ClaimWorld): ClaimAction {
  const name = c.spec?.volumeName;
  if (!name) return c.status?.phase === 'Lost' ? { kind: 'none' } : { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!' } };
  const v = w.volume(name);
  if (!v) return c.status?.phase === 'Lost' ? { kind: 'none' } : { kind: 'lost', event: { type: 'Warning', reason: 'ClaimLost', message: 'Bound claim has lost its PersistentVolume. Data on the volume is lost!' } };
  if (!v.spec?.claimRef || v.spec.claimRef.uid === c.metadata?.uid) return { kind: 'bind', volume: name };
  return c.status?.phase === 'Lost' ? { kind: 'none' } : { kind: 'lost', event: { type: 'Warning', reason: 'ClaimMisbound', message: 'Two claims are bound to the same volume, this one is bound incorrectly' } };
}

export function decideClaim(c: CoreV1PersistentVolumeClaim, w: ClaimWorld): ClaimAction {
  return hasAnnotation(c, annBindCompleted) ? decideBound(c, w) : decideUnbound(c, w);
}

export type VolumeAction =
  | { kind: 'phase'; phase: 'Available' | 'Bound' }
  /** the claim is gone: Released, then the reclaim policy */
  | { kind: 'release'; reclaim: 'retain' | 'external-delete' | 'fail'; event?: BinderEvent }
  | { kind: 'syncClaim'; claim: string }
  | { kind: 'unbind'; keepPreBinding: boolean }
  | { kind: 'none' };

/**
 * claim: the claim the volume's claimRef names, as found (undefined when there is none, or it is
 * a newer claim of the same name: a different uid).
 */
export function decideVolume(v: CoreV1PersistentVolume, claim: CoreV1PersistentVolumeClaim | undefined, claimVolumeModeChecked = true): VolumeAction {
  const ref = v.spec?.claimRef;
  if (!ref || !ref.uid) return { kind: 'phase', phase: 'Available' };
  if (claim && claim.metadata?.uid !== ref.uid) claim = undefined;
  if (!claim) return { kind: 'release', ...reclaimOf(v) };
  if (!claim.spec?.volumeName) {
    if (claimVolumeModeChecked && volumeModeMismatch(claim, v)) return { kind: 'none' };
    return { kind: 'syncClaim', claim: `${claim.metadata?.namespace}/${claim.metadata?.name}` };
  }
  if (claim.spec.volumeName === v.metadata?.name) return { kind: 'phase', phase: 'Bound' };
  // the claim went to another volume
  if (hasAnnotation(v, annProvisionedBy) && v.spec?.persistentVolumeReclaimPolicy === 'Delete') return { kind: 'release', ...reclaimOf(v) };
  return { kind: 'unbind', keepPreBinding: !hasAnnotation(v, annBoundByController) };
}

function reclaimOf(v: CoreV1PersistentVolume): { reclaim: 'retain' | 'external-delete' | 'fail'; event?: BinderEvent } {
  switch (v.spec?.persistentVolumeReclaimPolicy ?? 'Retain') {
    case 'Retain': return { reclaim: 'retain' };
    case 'Delete':
      // provisioned volumes are deleted by their provisioner; orch has no in-tree deleters
      if (hasAnnotation(v, annProvisionedBy)) return { reclaim: 'external-delete' };
      return { reclaim: 'fail', event: { type: 'Warning', reason: 'VolumeFailedDelete', message: `error getting deleter volume plugin for volume "${v.metadata?.name}": no deletable volume plugin matched` } };
    case 'Recycle': return { reclaim: 'fail', event: { type: 'Warning', reason: 'VolumeFailedRecycle', message: `No recycler plugin found for the volume!` } };
    default: return { reclaim: 'fail', event: { type: 'Warning', reason: 'VolumeUnknownReclaimPolicy', message: 'Volume has unrecognized PersistentVolumeReclaimPolicy' } };
  }
}
