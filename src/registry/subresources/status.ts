// status: the part of an object its controllers report. A write through it changes status and
// nothing else; the main resource's writes never change status (the generic store keeps it).

import { deepClone } from '../../api/object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import { ownKind, type Subresource } from './subresource.ts';

export const statusSubresource: Subresource = {
  name: 'status',
  verbs: ['get', 'patch', 'update'],
  connect: false,
  kind: ownKind,
  ownedFields: [['status']],
  view: { apply: true },
  writes: {
    prepare: (obj, current, strategy, ctx) => {
      const next = { ...deepClone(current), status: obj.status };
      strategy.prepareForStatusUpdate?.(next, current, ctx);
      return next;
    },
    validate: (obj, current, strategy, ctx) => (strategy.validateStatusUpdate ?? strategy.validateUpdate)(obj, current, ctx),
  },
};

/** whether writes of the main resource leave status alone (the resource has a status subresource) */
export function hasStatusSubresource(info: ResourceInfo): boolean {
  return info.subresources.some(s => s.name === statusSubresource.name);
}
