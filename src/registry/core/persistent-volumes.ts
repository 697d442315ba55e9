// PersistentVolumes and PersistentVolumeClaims: Kubernetes' defaults and the status a new one
// starts with (Pending, until the binder looks at it), and the StorageObjectInUseProtection
// admission plugin's finalizers, which keep a claim a pod uses, or a volume bound to a claim,
// from going before the protection controllers let them go.

import { strategyWith, type StrategyContext } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';
import { assignDefaultStorageClass } from './default-storage-class.ts';

type Volume = CoreV1PersistentVolume & KubeObject;
type Claim = CoreV1PersistentVolumeClaim & KubeObject;

export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';

function addFinalizer(obj: KubeObject, finalizer: string): void {
  const f = obj.metadata.finalizers ?? [];
  if (!f.includes(finalizer)) obj.metadata.finalizers = [...f, finalizer];
}

export const persistentVolumeStrategy = strategyWith<Volume>({
  prepareForCreate(obj) {
    obj.spec ??= {};
    obj.spec.persistentVolumeReclaimPolicy ??= 'Retain';
    obj.spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending' };
  },
  admitCreate(obj) { addFinalizer(obj, pvProtectionFinalizer); },
});

export const persistentVolumeClaimStrategy = strategyWith<Claim>({
  prepareForCreate(obj) {
    obj.spec ??= {};
    obj.spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending' };
  },
  // the DefaultStorageClass and StorageObjectInUseProtection admission plugins
  async admitCreate(obj, ctx: StrategyContext) {
    await assignDefaultStorageClass(obj, ctx);
    addFinalizer(obj, pvcProtectionFinalizer);
  },
});
