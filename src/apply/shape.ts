// How server-side apply treats a value, from the schema: a leaf (scalars and anything marked
// atomic), a struct or map merged field by field, a list of items identified by key fields,
// or a set of scalars. Built-in lists without a list-type fall back to their patch strategy.
// The list and map extensions are read from the property (built-in definitions) or from the
// schema itself (CRD schemas, where list items and map values carry their own).

import { fieldOf, type FieldInfo, type SchemaNode } from '../schema/schema-walker.ts';

export type Shape =
  | { kind: 'leaf' }
  | { kind: 'struct'; node: SchemaNode }
  | { kind: 'map'; elem?: SchemaNode }
  | { kind: 'list-map'; keys: readonly string[]; elem?: SchemaNode; defaults?: Readonly<Record<string, unknown>> }
  | { kind: 'set' };

const leaf: Shape = { kind: 'leaf' };

// list-map keys that Kubernetes fills in when an item leaves them out (built-ins; a CRD schema
// says its own)
const keyDefaults: Record<string, unknown> = { protocol: 'TCP' };

// shapes are asked for on every step of every walk: one per field (or node) is enough
const byField = new WeakMap<FieldInfo, Shape>();
const byNode = new WeakMap<SchemaNode, Shape>();

export function shapeOf(node: SchemaNode | undefined, field?: FieldInfo): Shape {
  if (!node) return leaf;
  const cached = field ? byField.get(field) : byNode.get(node);
  if (cached) return cached;
  const shape = computeShape(node, field);
  if (field) byField.set(field, shape); else byNode.set(node, shape);
  return shape;
}

function computeShape(node: SchemaNode, field?: FieldInfo): Shape {
  switch (node.kind) {
    case 'struct':
      return node.atomic || (field?.mapType ?? node.mapType) === 'atomic' ? leaf : { kind: 'struct', node };
    case 'map':
      return (field?.mapType ?? node.mapType) === 'atomic' ? leaf : { kind: 'map', elem: node.elem };
    case 'list': {
      const type = field?.listType ?? node.listType;
      const mergeKey = field?.patchMergeKey;
      if (type === 'map') {
        const keys = field?.listMapKeys ?? node.listMapKeys ?? (mergeKey ? [mergeKey] : []);
        return { kind: 'list-map', keys, elem: node.elem, ...(node.listMapKeyDefaults ? { defaults: node.listMapKeyDefaults } : {}) };
      }
      if (type === 'set') return { kind: 'set' };
      if (type === 'atomic') return leaf;
      if (field?.patchStrategies.includes('merge')) return mergeKey ? { kind: 'list-map', keys: [mergeKey], elem: node.elem } : { kind: 'set' };
      return leaf;
    }
    default:
      return leaf;
  }
}

/** the shape of `key` inside a struct or map */
export function childShape(shape: Shape, key: string): Shape {
  if (shape.kind === 'struct') {
    const f = fieldOf(shape.node, key);
    return f ? shapeOf(f.node, f) : shapeOf(shape.node.unknown);
  }
  if (shape.kind === 'map') return shapeOf(shape.elem);
  return leaf;
}

export function itemShape(shape: Shape): Shape {
  return shape.kind === 'list-map' ? shapeOf(shape.elem) : leaf;
}

const itemKeys = new WeakMap<Shape, WeakMap<object, string>>();

/** the `k:` path element of a list-map item: its key fields as JSON, sorted by name */
export function itemKey(shape: Extract<Shape, { kind: 'list-map' }>, item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  let cache = itemKeys.get(shape);
  if (!cache) itemKeys.set(shape, cache = new WeakMap());
  let key = cache.get(item);
  if (key === undefined) cache.set(item, key = computeItemKey(shape, item as Record<string, unknown>));
  return key;
}

function computeItemKey(shape: Extract<Shape, { kind: 'list-map' }>, o: Record<string, unknown>): string {
  const key: Record<string, unknown> = {};
  for (const k of [...shape.keys].sort()) {
    const v = o[k] ?? (shape.defaults ?? keyDefaults)[k];
    if (v !== undefined) key[k] = v;
  }
  return `k:${JSON.stringify(key)}`;
}

export function setKey(item: unknown): string {
  return `v:${JSON.stringify(item)}`;
}
