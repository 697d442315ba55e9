// DefaultStorageClass: a new claim that names no class (storageClassName absent and no beta
// annotation; an empty string means "no class" and is kept) gets the cluster's default class.

import type { KubeObject } from '../../../api/object.ts';
import { defaultClassOf } from '../../../api/default-storage-class.ts';
import type { CoreV1PersistentVolumeClaim } from '../../../schema/generated/types.ts';
import type { AdmissionDeps, AdmissionPlugin } from '../types.ts';

const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

export function defaultStorageClass(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    async admit(a) {
      if (a.operation !== 'CREATE' || a.subresource || a.resource.group !== '' || a.resource.resource !== 'persistentvolumeclaims' || !a.object) return;
      const claim = a.object as CoreV1PersistentVolumeClaim & KubeObject;
      if (claim.spec?.storageClassName != null || claim.metadata.annotations?.[betaClassAnnotation] != null) return;
      const info = deps.catalog.resources('storage.k8s.io', 'v1').find(r => r.resource === 'storageclasses');
      const chosen = info && defaultClassOf((await deps.registry.list(info, undefined)).items);
      if (chosen) claim.spec = { ...claim.spec, storageClassName: chosen.metadata?.name };
    },
  };
}
