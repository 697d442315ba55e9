// Who a write is recorded under in metadata.managedFields, and what it can own there: the
// main resource everything but status, a subresource only the fields it declares.

import { apiVersionOf } from '../api/object.ts';
import type { ManagerContext } from '../apply/index.ts';
import type { ResourceInfo } from '../schema/types.ts';
import { subresourceNamed } from './subresources/table.ts';

export function managerContext(info: ResourceInfo, manager: string, subresource: string | undefined, now: string): ManagerContext {
  return {
    definition: info.definition,
    apiVersion: apiVersionOf(info.group, info.version),
    manager,
    subresource: subresource ?? '',
    owns: subresource ? subresourceNamed(subresource)?.ownedFields : undefined,
    now,
  };
}
