// Compiled views of the OpenAPI definitions for code that walks objects field by field on every
// write (strategic merge patch, unknown-field detection, decode type checks). Each definition is
// compiled once into a SchemaNode with a Map of fields, so a walk costs one Map lookup per key.

import { definition, type SchemaObject } from './definitions.ts';

export type NodeKind =
  | 'struct' | 'map' | 'list'
  | 'string' | 'integer' | 'number' | 'boolean' | 'bytes'
  | 'int-or-string' | 'quantity' | 'time'
  /** anything goes (RawExtension, FieldsV1, apiextensions JSON, schema-less objects) */
  | 'any';

export interface FieldInfo {
  name: string;
  node: SchemaNode;
  /** x-kubernetes-patch-strategy split on commas: 'merge', 'retainKeys', 'replace' */
  patchStrategies: readonly string[];
  patchMergeKey?: string;
  listType?: string;
  /** x-kubernetes-list-map-keys: the fields that identify an item of a list-type map */
  listMapKeys?: readonly string[];
  mapType?: string;
}

export interface SchemaNode {
  kind: NodeKind;
  /** the definition this node was compiled from, when it came through a $ref */
  definition?: string;
  /** integer/number width: 'int32', 'int64', 'double' */
  format?: string;
  /** struct fields by JSON name */
  fields?: Map<string, FieldInfo>;
  /** list items or map values */
  elem?: SchemaNode;
  /** x-kubernetes-preserve-unknown-fields: keys outside `fields` are kept, not reported */
  preserveUnknown?: boolean;
  /** x-kubernetes-map-type: atomic on the type itself: the struct or map is one value */
  atomic?: boolean;
  /**
   * the list and map extensions as the schema itself carries them (CRD schemas put them on the
   * array or map, also where no property holds it: list items, map values)
   */
  listType?: string;
  listMapKeys?: readonly string[];
  /** the schema's defaults of list-map keys an item may leave out (CRD schemas) */
  listMapKeyDefaults?: Readonly<Record<string, unknown>>;
  mapType?: string;
  /** what keys outside `fields` hold (CRD schemas that preserve unknown fields: untyped values) */
  unknown?: SchemaNode;
}

const refPrefix = '#/definitions/';
const byDefinition = new Map<string, SchemaNode>();
const noStrategies: readonly string[] = Object.freeze([]);

// Definitions with a schema of bare `type: object` that Go decodes as opaque JSON rather than
// as an empty struct: their contents are never checked.
const opaqueDefinitions = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
]);

const anyNode: SchemaNode = Object.freeze({ kind: 'any' }) as SchemaNode;

/** the compiled node of a definition (io.k8s.api.core.v1.Pod), cached; undefined if unknown */
export function schemaNode(definitionName: string): SchemaNode | undefined {
  const hit = byDefinition.get(definitionName);
  if (hit) return hit;
  const raw = definition(definitionName);
  if (!raw) return undefined;
  // placed in the cache before its fields compile so self-referencing types terminate
  const node: SchemaNode = { kind: 'any', definition: definitionName };
  byDefinition.set(definitionName, node);
  Object.assign(node, compileShape(raw, definitionName));
  return node;
}

/** compile a schema that is not a named definition (CRD schemas, inline property schemas) */
export function compileSchema(schema: SchemaObject): SchemaNode {
  return compileShape(schema, undefined);
}

function compileShape(s: SchemaObject, defName: string | undefined): SchemaNode {
  const ref = s['$ref'];
  if (typeof ref === 'string' && ref.startsWith(refPrefix)) return schemaNode(ref.slice(refPrefix.length)) ?? anyNode;
  if (defName === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return { kind: 'quantity', definition: defName };
  if (defName && opaqueDefinitions.has(defName)) return { kind: 'any', definition: defName };
  const type = s['type'];
  const format = typeof s['format'] === 'string' ? s['format'] : undefined;
  const base = defName ? { definition: defName } : {};
  switch (type) {
    case 'string':
      if (format === 'int-or-string') return { ...base, kind: 'int-or-string' };
      if (format === 'byte') return { ...base, kind: 'bytes' };
      if (format === 'date-time') return { ...base, kind: 'time' };
      return { ...base, kind: 'string' };
    case 'integer': return { ...base, kind: 'integer', format: format ?? 'int64' };
    case 'number': return { ...base, kind: 'number', format: format ?? 'double' };
    case 'boolean': return { ...base, kind: 'boolean' };
    case 'array': return withListExtensions({ ...base, kind: 'list', elem: s['items'] ? compileShape(s['items'] as SchemaObject, undefined) : anyNode }, s);
    case 'object': return compileObject(s, base);
    default:
      if (s['x-kubernetes-int-or-string'] === true) return { ...base, kind: 'int-or-string' };
      if (s['properties']) return compileObject(s, base);
      return { ...base, kind: 'any' };
  }
}

function compileObject(s: SchemaObject, base: { definition?: string }): SchemaNode {
  const props = s['properties'] as Record<string, SchemaObject> | undefined;
  const extra = s['additionalProperties'];
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (!props && extra && typeof extra === 'object') {
    const map: SchemaNode = { ...base, kind: 'map', elem: compileShape(extra as SchemaObject, undefined) };
    if (typeof s['x-kubernetes-map-type'] === 'string') map.mapType = s['x-kubernetes-map-type'] as string;
    return map;
  }
  if (!props && !base.definition && !s['x-kubernetes-embedded-resource']) {
    // an inline object with no properties keeps nothing unless it says it preserves unknown fields
    return preserve || extra === true ? { ...base, kind: 'any' } : { ...base, kind: 'struct', fields: new Map() };
  }
  const fields = new Map<string, FieldInfo>();
  for (const [name, p] of Object.entries(props ?? {})) fields.set(name, fieldInfo(name, p));
  if (s['x-kubernetes-embedded-resource'] === true) {
    for (const name of ['apiVersion', 'kind']) if (!fields.has(name)) fields.set(name, fieldInfo(name, { type: 'string' }));
    if (!fields.has('metadata')) fields.set('metadata', fieldInfo('metadata', { $ref: refPrefix + 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }));
  }
  const node: SchemaNode = { ...base, kind: 'struct', fields };
  if (preserve) node.preserveUnknown = true;
  if (s['x-kubernetes-map-type'] === 'atomic') node.atomic = true;
  return node;
}

function withListExtensions(node: SchemaNode, s: SchemaObject): SchemaNode {
  if (typeof s['x-kubernetes-list-type'] === 'string') node.listType = s['x-kubernetes-list-type'] as string;
  if (Array.isArray(s['x-kubernetes-list-map-keys'])) node.listMapKeys = (s['x-kubernetes-list-map-keys'] as unknown[]).map(String);
  const props = (s['items'] as SchemaObject | undefined)?.['properties'] as Record<string, SchemaObject> | undefined;
  const defaults = Object.fromEntries((node.listMapKeys ?? []).filter(k => props?.[k]?.['default'] !== undefined).map(k => [k, props![k]!['default']]));
  if (Object.keys(defaults).length) node.listMapKeyDefaults = defaults;
  return node;
}

function fieldInfo(name: string, p: SchemaObject): FieldInfo {
  const strategy = p['x-kubernetes-patch-strategy'];
  const info: FieldInfo = {
    name,
    node: compileShape(p, undefined),
    patchStrategies: typeof strategy === 'string' && strategy ? strategy.split(',').map(x => x.trim()) : noStrategies,
  };
  const key = p['x-kubernetes-patch-merge-key'];
  if (typeof key === 'string') info.patchMergeKey = key;
  if (typeof p['x-kubernetes-list-type'] === 'string') info.listType = p['x-kubernetes-list-type'] as string;
  if (Array.isArray(p['x-kubernetes-list-map-keys'])) info.listMapKeys = (p['x-kubernetes-list-map-keys'] as unknown[]).map(String);
  if (typeof p['x-kubernetes-map-type'] === 'string') info.mapType = p['x-kubernetes-map-type'] as string;
  return info;
}

/** the field `name` of a struct node; undefined for maps, lists, scalars and unknown names */
export function fieldOf(node: SchemaNode | undefined, name: string): FieldInfo | undefined {
  return node?.fields?.get(name);
}

/** the node one step below `node`: a struct field, a map value (any key) or a list item (a number) */
export function childNode(node: SchemaNode | undefined, step: string | number): SchemaNode | undefined {
  if (!node) return undefined;
  switch (node.kind) {
    case 'struct': return typeof step === 'string' ? node.fields!.get(step)?.node ?? (node.preserveUnknown ? anyNode : undefined) : undefined;
    case 'map': return typeof step === 'string' ? node.elem : undefined;
    case 'list': return typeof step === 'number' ? node.elem : undefined;
    case 'any': return anyNode;
    default: return undefined;
  }
}

/** split `spec.containers[0].image` (or `.spec.containers[0].image`) into ['spec','containers',0,'image'] */
export function parseFieldPath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /\.?([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) !== null) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** the schema node at `path` below the definition `rootDefinition`, or undefined if the path leaves the schema */
export function resolvePath(rootDefinition: string, path: string | ReadonlyArray<string | number>): SchemaNode | undefined {
  let node = schemaNode(rootDefinition);
  for (const step of typeof path === 'string' ? parseFieldPath(path) : path) {
    node = childNode(node, step);
    if (!node) return undefined;
  }
  return node;
}
