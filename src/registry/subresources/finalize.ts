// namespaces/<name>/finalize: the one way to change a namespace's spec.finalizers (the namespace
// controller removes `kubernetes` once the namespace is empty); everything else stays as stored.

import { deepClone } from '../../api/object.ts';
import { ownKind, type Subresource } from './subresource.ts';

export const finalizeSubresource: Subresource = {
  name: 'finalize',
  verbs: ['update'],
  connect: false,
  kind: ownKind,
  view: { apply: false },
  writes: {
    prepare(obj, current) {
      const finalizers = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
      return { ...deepClone(current), spec: { ...(current.spec as object), finalizers } };
    },
    validate: (obj, current, strategy, ctx) => strategy.validateUpdate(obj, current, ctx),
  },
};
