// The type of a custom resource as server-side apply walks it, built from its CRD version's
// structural schema the way apiextensions-apiserver builds its type converter: apiVersion and
// kind are strings and metadata is ObjectMeta whatever the schema says, lists are atomic unless
// x-kubernetes-list-type says set or map, objects merge field by field unless
// x-kubernetes-map-type is atomic, and what x-kubernetes-preserve-unknown-fields keeps is
// "deduced": objects merge key by key, lists and scalars are owned whole.

import type { SchemaObject } from './definitions.ts';
import { compileSchema, schemaNode, type FieldInfo, type SchemaNode } from './schema-walker.ts';

/** structured-merge-diff's deduced type: a map of itself; lists and scalars under it are leaves */
const deduced: SchemaNode = { kind: 'map' };
deduced.elem = deduced;

const noStrategies: readonly string[] = Object.freeze([]);

function field(name: string, node: SchemaNode): FieldInfo {
  return { name, node, patchStrategies: noStrategies };
}

/** untyped parts of a freshly compiled CRD schema made deduced (shared definitions left alone) */
function deduce(node: SchemaNode, seen: Set<SchemaNode>): SchemaNode {
  if (node.definition) return node;
  if (node.kind === 'any') return deduced;
  if (seen.has(node)) return node;
  seen.add(node);
  if (node.kind === 'struct') {
    for (const f of node.fields?.values() ?? []) f.node = deduce(f.node, seen);
    if (node.preserveUnknown) node.unknown = deduced;
  } else if ((node.kind === 'map' || node.kind === 'list') && node.elem) {
    node.elem = deduce(node.elem, seen);
  }
  return node;
}

function compile(schema: SchemaObject | undefined): SchemaNode {
  // no schema: everything is kept, as with preserve-unknown-fields at the root
  const compiled = schema ? deduce(compileSchema(schema), new Set()) : deduced;
  const root: SchemaNode = compiled.kind === 'struct'
    ? compiled
    : { kind: 'struct', fields: new Map(), preserveUnknown: true, unknown: deduced };
  const meta = schemaNode('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  root.fields!.set('apiVersion', field('apiVersion', { kind: 'string' }));
  root.fields!.set('kind', field('kind', { kind: 'string' }));
  if (meta) root.fields!.set('metadata', field('metadata', meta));
  return root;
}

const cache = new WeakMap<object, SchemaNode>();
let schemaless: SchemaNode | undefined;

/** the node of a custom resource whose version has `schema` (openAPIV3Schema), cached per schema */
export function customResourceNode(schema: unknown): SchemaNode {
  if (schema === null || typeof schema !== 'object') return schemaless ??= compile(undefined);
  let node = cache.get(schema);
  if (!node) cache.set(schema, node = compile(schema as SchemaObject));
  return node;
}
