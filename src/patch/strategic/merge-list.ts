// Lists with the `merge` patch strategy: maps merge item by item on the merge key (containers by
// name, ports by containerPort), scalar lists merge as sets (finalizers). Items of the patch may
// carry `$patch: delete` (drop the item with that key) or `$patch: replace` (the list becomes the
// patch's other items).

import { isObject } from '../../api/object.ts';
import type { SchemaNode } from '../../schema/schema-walker.ts';
import {
  badPatchType, elementTypesDiffer, mergeDirectiveInList, noListOfLists, noMergeKey, StrategicMergePatchError,
} from './errors.ts';
import { itemKey, normalizeOrder, partition } from './order.ts';
import { DELETE, directiveMarker, jsonKind, type Mergers } from './values.ts';

/** the common kind of the items of both lists; errors for lists of lists and mixed kinds */
function elementKind(original: unknown[], patch: unknown[]): string | undefined {
  let kind: string | undefined;
  for (const list of [original, patch]) {
    for (const item of list) {
      const k = jsonKind(item);
      if (kind === undefined) {
        if (k === 'slice') throw noListOfLists();
        kind = k;
      } else if (k !== kind) {
        throw elementTypesDiffer([original, patch]);
      }
    }
  }
  return kind;
}

export function mergeList(
  original: unknown[], patch: unknown[], mergeKey: string | undefined, elem: SchemaNode | undefined, m: Mergers,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  if (kind !== 'map') {
    const merged = dedupe([...original, ...patch]);
    const [patchItems, serverOnly] = partition(merged, patch, undefined);
    return normalizeOrder(patchItems, serverOnly, patch, original, undefined);
  }
  if (!mergeKey) throw new StrategicMergePatchError('cannot merge lists without merge key for type struct');

  let server = original;
  const items: Record<string, unknown>[] = [];
  let replace = false;
  for (const raw of patch) {
    const item = raw as Record<string, unknown>;
    if (!(directiveMarker in item)) { items.push(item); continue; }
    const directive = item[directiveMarker];
    if (directive === 'delete') {
      if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
      const key = item[mergeKey];
      server = server.filter(x => itemKey(x, mergeKey) !== key);
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw mergeDirectiveInList();
    } else {
      throw badPatchType(directive, item);
    }
  }
  if (replace) return cleanItems(items, elem, m);

  const merged = [...server];
  for (const item of items) {
    if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
    const key = item[mergeKey];
    const at = merged.findIndex(x => isObject(x) && mergeKey in x && x[mergeKey] === key);
    if (at >= 0) {
      const r = m.mergeMap(merged[at] as Record<string, unknown>, item, elem);
      merged[at] = r === DELETE ? {} : r;
    } else {
      const r = m.clean(item, elem);
      if (r !== DELETE) merged.push(r);
    }
  }
  const [patchItems, serverOnly] = partition(merged, items, mergeKey);
  return normalizeOrder(patchItems, serverOnly, items, server, mergeKey);
}

/** `$deleteFromPrimitiveList/<field>`: drop every occurrence of the listed values */
export function deleteFromPrimitiveList(original: unknown[], toDelete: unknown[]): unknown[] {
  const gone = new Set(toDelete);
  return original.filter(x => !gone.has(x));
}

function cleanItems(items: unknown[], elem: SchemaNode | undefined, m: Mergers): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    const r = m.clean(item, elem);
    if (r !== DELETE) out.push(r);
  }
  return out;
}

function dedupe(list: unknown[]): unknown[] {
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const x of list) if (!seen.has(x)) { seen.add(x); out.push(x); }
  return out;
}
