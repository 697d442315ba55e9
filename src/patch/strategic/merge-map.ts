// Merging one map of a strategic merge patch into the original, guided by the schema node of the
// map: `null` deletes a key, nested maps merge, lists merge or replace as their field's
// x-kubernetes-patch-strategy says, and the map-level directives are applied first —
// `$patch` (replace | delete), `$retainKeys`, `$deleteFromPrimitiveList/<f>`, `$setElementOrder/<f>`.

import { isObject } from '../../api/object.ts';
import { fieldOf, type FieldInfo, type SchemaNode } from '../../schema/schema-walker.ts';
import {
  badPatchFormatForPrimitiveList, badPatchFormatForRetainKeys, badPatchType,
  unknownDirective,
} from './errors.ts';
import { deleteFromPrimitiveList, mergeList } from './merge-list.ts';
import { applySetElementOrder } from './set-element-order.ts';
import {
  DELETE, deleteFromPrimitiveListPrefix, directiveMarker, retainKeysDirective, setElementOrderPrefix, type MergedMap, type Mergers,
} from './values.ts';

type JsonMap = Record<string, unknown>;

function childOf(node: SchemaNode | undefined, key: string): { field?: FieldInfo; node?: SchemaNode } {
  if (!node) return {};
  if (node.kind === 'struct') {
    const field = fieldOf(node, key);
    return field ? { field, node: field.node } : {};
  }
  if (node.kind === 'map') return { node: node.elem };
  return {};
}

function isDirectiveKey(key: string): boolean {
  return key === retainKeysDirective || key.startsWith(deleteFromPrimitiveListPrefix) || key.startsWith(setElementOrderPrefix);
}

export function mergeMap(original: JsonMap | undefined, patch: JsonMap, node: SchemaNode | undefined): MergedMap {
  if (directiveMarker in patch) {
    const directive = patch[directiveMarker];
    if (directive === 'delete') return DELETE;
    if (directive !== 'replace') throw badPatchType(directive, patch);
    const { [directiveMarker]: _, ...rest } = patch;
    return mergeMap(undefined, rest, node);
  }
  const out = original ?? {};
  applyRetainKeys(out, patch);
  const consumed = new Set<string>();
  for (const key of Object.keys(patch)) {
    if (key.startsWith(deleteFromPrimitiveListPrefix)) applyDeleteFromPrimitiveList(out, key, patch[key]);
  }
  for (const key of Object.keys(patch)) {
    if (key.startsWith(setElementOrderPrefix)) applySetElementOrder(out, patch, key, node, consumed, mergers);
  }
  for (const key of Object.keys(patch)) {
    if (consumed.has(key) || isDirectiveKey(key)) continue;
    const v = patch[key];
    const child = childOf(node, key);
    if (key.startsWith('$') && !child.field) throw unknownDirective(key);
    if (v === null) { delete out[key]; continue; }
    const current = out[key];
    let next: unknown;
    if (isObject(current) && isObject(v)) {
      next = child.field?.patchStrategies.includes('replace') ? clean(v, child.node) : mergeMap(current, v, child.node);
    } else if (Array.isArray(current) && Array.isArray(v) && child.field?.patchStrategies.includes('merge')) {
      next = mergeList(current, v, child.field.patchMergeKey, child.node?.elem, mergers);
    } else {
      next = clean(v, child.node);
    }
    if (next === DELETE) delete out[key];
    else out[key] = next;
  }
  return out;
}

/** a patch value placed where the original had nothing comparable: a fresh copy with directives applied */
export function clean(value: unknown, node: SchemaNode | undefined): unknown {
  if (isObject(value)) return mergeMap(undefined, value, node);
  if (Array.isArray(value)) {
    const elem = node?.kind === 'list' ? node.elem : undefined;
    const out: unknown[] = [];
    for (const item of value) {
      const r = clean(item, elem);
      if (r !== DELETE) out.push(r);
    }
    return out;
  }
  return value;
}

const mergers: Mergers = { mergeMap, clean };

// `$retainKeys: [a, b]` clears every original key not listed; every key the patch sets must be listed
function applyRetainKeys(out: JsonMap, patch: JsonMap): void {
  if (!(retainKeysDirective in patch)) return;
  const list = patch[retainKeysDirective];
  if (!Array.isArray(list)) throw badPatchFormatForRetainKeys();
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || isDirectiveKey(k)) continue;
    if (!keep.has(k)) throw badPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
}

function applyDeleteFromPrimitiveList(out: JsonMap, key: string, values: unknown): void {
  if (!Array.isArray(values)) throw badPatchFormatForPrimitiveList();
  const field = key.slice(deleteFromPrimitiveListPrefix.length);
  const current = out[field];
  if (Array.isArray(current)) out[field] = deleteFromPrimitiveList(current, values);
}

