// `$setElementOrder/<field>`: the order the patch wants a merged list in. kubectl's apply sends
// it with every list it patches, so that the items end in the order of the applied file while
// items only the server knows keep their place relative to them.

import { fieldOf, type SchemaNode } from '../../schema/schema-walker.ts';
import { badPatchFormatForSetElementOrderList, orderMismatch } from './errors.ts';
import { mergeList } from './merge-list.ts';
import { itemKey, normalizeOrder, partition, positions } from './order.ts';
import { directiveMarker, setElementOrderPrefix, type Mergers } from './values.ts';

type JsonMap = Record<string, unknown>;

/** merges `patch[field]` (if any) under the order the directive gives, marking the field consumed */
export function applySetElementOrder(
  out: JsonMap, patch: JsonMap, directiveKey: string, node: SchemaNode | undefined, consumed: Set<string>, m: Mergers,
): void {
  const order = patch[directiveKey];
  if (!Array.isArray(order)) throw badPatchFormatForSetElementOrderList();
  const field = directiveKey.slice(setElementOrderPrefix.length);
  const info = node?.kind === 'struct' ? fieldOf(node, field) : undefined;
  const mergeKey = info?.patchMergeKey;
  for (const item of order) {
    if (mergeKey && (item === null || typeof item !== 'object' || !(mergeKey in (item as JsonMap)))) throw badPatchFormatForSetElementOrderList();
  }
  const current = Array.isArray(out[field]) ? (out[field] as unknown[]) : [];
  const patchList = patch[field];
  let merged = current;
  if (Array.isArray(patchList)) {
    checkPatchFollowsOrder(patchList, order, mergeKey);
    merged = info?.patchStrategies.includes('merge')
      ? mergeList(current, patchList, mergeKey, info.node.elem, m)
      : (m.clean(patchList, info?.node) as unknown[]);
    consumed.add(field);
  } else if (field in patch) {
    return; // null or a non-list value: the ordinary merge handles it
  }
  if (merged.length === 0 && !(field in out)) return;
  const [ordered, serverOnly] = partition(merged, order, mergeKey);
  out[field] = normalizeOrder(ordered, serverOnly, order, current, mergeKey);
}

/** the patch's own items must appear in the directive's list, in the same relative order */
function checkPatchFollowsOrder(patchList: unknown[], order: unknown[], mergeKey: string | undefined): void {
  const at = positions(order, mergeKey);
  let last = -1;
  for (const item of patchList) {
    if (mergeKey && item !== null && typeof item === 'object' && directiveMarker in (item as JsonMap)) continue;
    const p = at.get(itemKey(item, mergeKey));
    if (p === undefined) continue;
    if (p < last) throw orderMismatch(patchList, order);
    last = p;
  }
}
