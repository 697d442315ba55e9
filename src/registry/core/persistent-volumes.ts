// PersistentVolumes and PersistentVolumeClaims: Kubernetes' defaults and the status a new one
// starts with (Pending, until the binder looks at it). Their protection finalizers and a claim's
// default class are admission plugins' (apiserver/admission).

import { strategyWith } from '../strategy.ts';
import { rfc3339 } from '../../api/time.ts';
import type { KubeObject } from '../../api/object.ts';
import type { CoreV1PersistentVolume, CoreV1PersistentVolumeClaim } from '../../schema/generated/types.ts';
import { validateClaim, validateClaimUpdate, validateVolume, validateVolumeUpdate } from '../validation/persistent-volume.ts';

type Volume = CoreV1PersistentVolume & KubeObject;
type Claim = CoreV1PersistentVolumeClaim & KubeObject;

export const persistentVolumeStrategy = strategyWith<Volume>({
  prepareForCreate(obj, ctx) {
    obj.spec ??= {};
    obj.spec.persistentVolumeReclaimPolicy ??= 'Retain';
    obj.spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
  },
  validateCreate: obj => validateVolume(obj),
  validateUpdate: (obj, old) => validateVolumeUpdate(obj, old),
});

export const persistentVolumeClaimStrategy = strategyWith<Claim>({
  prepareForCreate(obj) {
    obj.spec ??= {};
    obj.spec.volumeMode ??= 'Filesystem';
    obj.status = { phase: 'Pending' };
  },
  validateCreate: obj => validateClaim(obj),
  validateUpdate: (obj, old) => validateClaimUpdate(obj, old),
});
