// Namespaces: named as DNS labels, Active until deleted, then Terminating until the namespace
// controller has emptied them and removed the `kubernetes` finalizer through /finalize.

import { strategyWith } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { CoreV1Namespace } from '../../schema/generated/types.ts';

type Namespace = CoreV1Namespace & KubeObject;

function nameLabel(obj: Namespace): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' };
}

export const namespaceStrategy = strategyWith<Namespace>({
  nameRule: 'label',
  returnDeletedObject: true,
  prepareForCreate(obj) {
    const s = obj.spec ??= {};
    if (!s.finalizers || s.finalizers.length === 0) s.finalizers = ['kubernetes'];
    obj.status = { phase: 'Active' };
    if (obj.metadata.name) nameLabel(obj);
  },
  prepareForUpdate(obj, old) {
    // spec.finalizers change only through the finalize subresource, which has writes of its own
    const oldFinalizers = old.spec?.finalizers;
    const s = obj.spec ??= {};
    if (oldFinalizers === undefined) delete s.finalizers; else s.finalizers = oldFinalizers;
    nameLabel(obj);
  },
  finalizersOf(obj) {
    return [...(obj.metadata.finalizers ?? []), ...(obj.spec?.finalizers ?? [])];
  },
  markDeleting(obj) {
    obj.status = { ...obj.status, phase: 'Terminating' };
  },
});
