// StorageObjectInUseProtection: new volumes and claims carry the protection finalizer, which
// keeps a claim a pod uses, or a volume bound to a claim, until the pvc-protection and
// pv-protection controllers let it go.

import type { KubeObject } from '../../../api/object.ts';
import type { AdmissionPlugin } from '../types.ts';

const finalizers: Record<string, string> = {
  persistentvolumes: 'kubernetes.io/pv-protection',
  persistentvolumeclaims: 'kubernetes.io/pvc-protection',
};

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    admit(a) {
      const finalizer = a.resource.group === '' ? finalizers[a.resource.resource] : undefined;
      if (a.operation !== 'CREATE' || a.subresource || !finalizer || !a.object) return;
      const meta: KubeObject['metadata'] = a.object.metadata ??= {};
      const f = meta.finalizers ?? [];
      if (!f.includes(finalizer)) meta.finalizers = [...f, finalizer];
    },
  };
}
