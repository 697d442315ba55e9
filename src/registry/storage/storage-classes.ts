// StorageClasses: Kubernetes' defaults (reclaimPolicy Delete, volumeBindingMode Immediate).

import { strategyWith } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { StorageV1StorageClass } from '../../schema/generated/types.ts';

type StorageClass = StorageV1StorageClass & KubeObject;

export const storageClassStrategy = strategyWith<StorageClass>({
  prepareForCreate(obj) {
    obj.reclaimPolicy ??= 'Delete';
    obj.volumeBindingMode ??= 'Immediate';
  },
});
