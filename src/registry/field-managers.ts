// Who a write is recorded under in metadata.managedFields, and what it can own there: the
// main resource everything but status (unless a custom resource has no status subresource),
// a subresource only the fields it declares. Custom resources are typed from their version's
// schema, built-ins from their OpenAPI definition.

import { apiVersionOf } from '../api/object.ts';
import type { ManagerContext } from '../apply/index.ts';
import { customResourceNode } from '../schema/custom-resource-node.ts';
import type { ResourceInfo } from '../schema/types.ts';
import { subresourceNamed } from './subresources/table.ts';

/** what a subresource write may own; a custom resource's scale owns its specReplicasPath */
function ownedThrough(info: ResourceInfo, subresource: string): ReadonlyArray<readonly string[]> | undefined {
  const replicas = info.custom?.scale?.specReplicasPath;
  if (subresource === 'scale' && replicas) return [replicas.replace(/^\./, '').split('.')];
  return subresourceNamed(subresource)?.ownedFields;
}

export function managerContext(info: ResourceInfo, manager: string, subresource: string | undefined, now: string): ManagerContext {
  const custom = info.custom;
  return {
    definition: info.definition,
    ...(custom ? { schema: customResourceNode(custom.schema), ownsStatus: !info.subresources.some(s => s.name === 'status') } : {}),
    apiVersion: apiVersionOf(info.group, info.version),
    manager,
    subresource: subresource ?? '',
    owns: subresource ? ownedThrough(info, subresource) : undefined,
    now,
  };
}
