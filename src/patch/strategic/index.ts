// Strategic merge patch for built-in types: a merge patch whose lists merge item by item where
// the schema says so (x-kubernetes-patch-strategy / patch-merge-key), with the `$patch`,
// `$retainKeys`, `$deleteFromPrimitiveList` and `$setElementOrder` directives.

import { deepClone } from '../../api/object.ts';
import { schemaNode } from '../../schema/schema-walker.ts';
import { patchNotAnObject } from './errors.ts';
import { mergeMap } from './merge-map.ts';
import { DELETE } from './values.ts';

export { StrategicMergePatchError } from './errors.ts';

/** applies `patch` to a copy of `original`, guided by the OpenAPI definition `definition` */
export function strategicMergePatch(original: Record<string, unknown>, patch: unknown, definition: string): Record<string, unknown> {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw patchNotAnObject(patch);
  const out = mergeMap(deepClone(original), patch as Record<string, unknown>, schemaNode(definition));
  return out === DELETE ? {} : out;
}
