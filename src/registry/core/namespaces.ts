// Namespaces: named as DNS labels, Active until deleted, then Terminating until the namespace
// controller has emptied them and removed the `kubernetes` finalizer through /finalize.

import { strategyWith } from '../strategy.ts';
import { forbidden } from '../../api/status.ts';

// namespaces the cluster itself relies on
const undeletable = new Set(['default', 'kube-system', 'kube-public']);
import type { KubeObject } from '../../api/object.ts';

interface NamespaceSpec { finalizers?: string[] }

function spec(obj: KubeObject): NamespaceSpec {
  return (obj.spec ??= {}) as NamespaceSpec;
}

function nameLabel(obj: KubeObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' };
}

export const namespaceStrategy = strategyWith({
  nameRule: 'label',
  returnDeletedObject: true,
  prepareForCreate(obj) {
    const s = spec(obj);
    if (!s.finalizers || s.finalizers.length === 0) s.finalizers = ['kubernetes'];
    obj.status = { phase: 'Active' };
    if (obj.metadata.name) nameLabel(obj);
  },
  prepareForUpdate(obj, old) {
    // spec.finalizers change only through the finalize subresource, which has writes of its own
    const oldFinalizers = (old.spec as NamespaceSpec | undefined)?.finalizers;
    if (oldFinalizers === undefined) delete spec(obj).finalizers; else spec(obj).finalizers = oldFinalizers;
    nameLabel(obj);
  },
  finalizersOf(obj) {
    return [...(obj.metadata.finalizers ?? []), ...((obj.spec as NamespaceSpec | undefined)?.finalizers ?? [])];
  },
  checkDelete(obj) {
    if (undeletable.has(obj.metadata.name ?? '')) throw forbidden({ group: '', resource: 'namespaces' }, obj.metadata.name!, 'this namespace may not be deleted');
  },
  markDeleting(obj) {
    obj.status = { ...(obj.status as object), phase: 'Terminating' };
  },
});
