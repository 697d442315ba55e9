// Small shared pieces of the strategic merge: the directive names, the "delete this" result of a
// `$patch: delete` map, and the merge callbacks list merging needs from map merging.

import type { SchemaNode } from '../../schema/schema-walker.ts';

export const directiveMarker = '$patch';
export const retainKeysDirective = '$retainKeys';
export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList/';
export const setElementOrderPrefix = '$setElementOrder/';

/** what merging a map yields when the patch says `$patch: delete` */
export const DELETE: unique symbol = Symbol('delete');
export type MergedMap = Record<string, unknown> | typeof DELETE;

export interface Mergers {
  /** merge `patch` into `original` (mutated; undefined means absent) */
  mergeMap(original: Record<string, unknown> | undefined, patch: Record<string, unknown>, node: SchemaNode | undefined): MergedMap;
  /** a patch value about to be stored where nothing was: directives applied, nulls dropped, copied */
  clean(value: unknown, node: SchemaNode | undefined): unknown;
}

/** Go's reflect kind of a decoded JSON value, for "all items have the same type" checks */
export function jsonKind(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  return typeof v === 'object' ? 'map' : typeof v;
}
