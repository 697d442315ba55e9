// PersistentVolumes and PersistentVolumeClaims: Kubernetes' defaults and the status a new one
// starts with (Pending, until the binder looks at it), and the StorageObjectInUseProtection
// admission plugin's finalizers, which keep a claim a pod uses, or a volume bound to a claim,
// from going before the protection controllers let them go.

import { strategyWith, type StrategyContext } from '../strategy.ts';
import { rfc3339 } from '../../api/time.ts';
import type { KubeObject } from '../../api/object.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';
import { assignDefaultStorageClass } from './default-storage-class.ts';
import { validateClaim, validateClaimUpdate, validateVolume, validateVolumeUpdate } from '../validation/persistent-volume.ts';

type Volume = CoreV1PersistentVolume & KubeObject;
type Claim = CoreV1PersistentVolumeClaim & KubeObject;

export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';

function addFinalizer(obj: KubeObject, finalizer: string): void {
  const f = obj.metadata.finalizers ?? [];
  if (!f.includes(finalizer)) obj.metadata.finalizers = [...f, finalizer];
}

export const persistentVolumeStrategy = strategyWith<Volume>({
  prepareForCreate(obj, ctx) {
    obj.spec ??= {};
    obj.spec.persistentVolumeReclaimPolicy ??= 'Retain';
    obj.spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
  },
  admitCreate(obj) { addFinalizer(obj, pvProtectionFinalizer); },
  validateCreate: obj => validateVolume(obj),
  validateUpdate: (obj, old) => validateVolumeUpdate(obj, old),
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
  validateCreate: obj => validateClaim(obj),
  validateUpdate: (obj, old) => validateClaimUpdate(obj, old),
});
