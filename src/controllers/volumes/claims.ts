// The annotations and readings of claims, volumes and classes that the binder, the provisioner,
// the scheduler and the protection controllers share, named as Kubernetes names them.

import { parseQuantity } from '../../api/quantity.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim, StorageV1StorageClass } from '../../schema/generated/types.ts';

export const annBindCompleted = 'pv.kubernetes.io/bind-completed';
export const annBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const annProvisionedBy = 'pv.kubernetes.io/provisioned-by';
export const annStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const annBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
export const annSelectedNode = 'volume.kubernetes.io/selected-node';
const annBetaClass = 'volume.beta.kubernetes.io/storage-class';

export type Claim = CoreV1PersistentVolumeClaim & { metadata: NonNullable<CoreV1PersistentVolumeClaim['metadata']> };
export type Volume = CoreV1PersistentVolume & { metadata: NonNullable<CoreV1PersistentVolume['metadata']> };
export type StorageClass = StorageV1StorageClass;

export const hasAnnotation = (o: { metadata?: { annotations?: Record<string, string> } }, key: string) => o.metadata?.annotations?.[key] !== undefined;

/** the class a claim asks for; "" is no class */
export function claimClass(c: CoreV1PersistentVolumeClaim): string {
  return c.metadata?.annotations?.[annBetaClass] ?? c.spec?.storageClassName ?? '';
}

export function volumeClass(v: CoreV1PersistentVolume): string {
  return v.metadata?.annotations?.[annBetaClass] ?? v.spec?.storageClassName ?? '';
}

/** bytes a claim requests */
export function requestedBytes(c: CoreV1PersistentVolumeClaim): number {
  return parseQuantity(c.spec?.resources?.requests?.storage) ?? 0;
}

export function volumeBytes(v: CoreV1PersistentVolume): number {
  return parseQuantity(v.spec?.capacity?.storage) ?? 0;
}

/** namespace/name */
export const claimKey = (c: { metadata?: { namespace?: string; name?: string } }) => `${c.metadata?.namespace}/${c.metadata?.name}`;

/** the volume names this claim by name (and by uid once bound) */
export function volumeBoundToClaim(v: CoreV1PersistentVolume, c: CoreV1PersistentVolumeClaim): boolean {
  const ref = v.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== c.metadata?.name || ref.namespace !== c.metadata?.namespace) return false;
  return !ref.uid || ref.uid === c.metadata?.uid;
}

/** the class's binding waits for a pod to be scheduled (WaitForFirstConsumer) */
export function delaysBinding(c: CoreV1PersistentVolumeClaim, classes: (name: string) => StorageClass | undefined): boolean {
  const name = claimClass(c);
  if (!name) return false;
  return classes(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}
