// Pruning as apiextensions-apiserver prunes a custom resource on decode (request bodies, and
// reads from storage): fields the schema does not specify are dropped unless a node says
// x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata of the resource and of
// embedded resources are kept (the resource's metadata keeps only ObjectMeta's fields, as its
// round trip through ObjectMeta does); then non-nullable nulls without a default are removed. The paths
// dropped are returned sorted, worded as the strict decoder reports them (`spec.foo`,
// `spec.list[0].bar`), for fieldValidation=Warn/Strict: `unknown field "spec.foo"`.

import { additionalSchema, isObject, itemsSchema, type JSONSchemaProps } from './types.ts';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

// the fields of ObjectMeta: what else the resource's metadata holds does not survive decoding
const objectMetaFields = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
]);

function pruneObjectMeta(meta: Record<string, unknown>, path: string): string[] {
  const dropped: string[] = [];
  for (const k of Object.keys(meta)) if (!objectMetaFields.has(k)) { dropped.push(`${path}.${k}`); delete meta[k]; }
  return dropped;
}

export interface PruneResult<T> {
  /** the pruned copy */
  object: T;
  /** the unknown fields dropped, sorted as Go sorts strings */
  unknownFields: string[];
}

/** prune a copy of `object` (a whole custom resource) by its version's openAPIV3Schema */
export function pruneCustomResource<T>(schema: JSONSchemaProps | undefined, object: T): PruneResult<T> {
  const { object: copy, unknownFields } = pruneValue(schema, object, true);
  if (isObject(copy) && isObject(copy.metadata)) unknownFields.push(...pruneObjectMeta(copy.metadata, 'metadata'));
  pruneNulls(copy, schema);
  unknownFields.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { object: copy, unknownFields };
}

/**
 * The pruning algorithm alone on a copy of any value: a resource root (or an embedded
 * resource) keeps its apiVersion, kind and metadata untouched.
 */
export function pruneValue<T>(schema: JSONSchemaProps | undefined, value: T, isResourceRoot: boolean): PruneResult<T> {
  const copy = structuredClone(value);
  const unknown: string[] = [];
  const s: JSONSchemaProps | undefined = isResourceRoot ? { ...(schema ?? {}), 'x-kubernetes-embedded-resource': true } : schema;
  prune(copy, s, '', unknown);
  return { object: copy, unknownFields: unknown };
}

/** the text of the strict decoding error (or warning) for one pruned field */
export function unknownFieldMessage(path: string): string {
  return `unknown field "${path}"`;
}

const join = (parent: string, k: string) => (parent ? `${parent}.${k}` : k);

/**
 * `keep`: below x-kubernetes-preserve-unknown-fields, where fields the schema does not name stay,
 * while those it names are still pruned inside
 */
function prune(x: unknown, s: JSONSchemaProps | undefined, path: string, unknown: string[], keep = false): void {
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) keep = true;
  if (!s && keep) return;
  if (isObject(x)) {
    if (!s) {
      for (const k of Object.keys(x)) { unknown.push(join(path, k)); delete x[k]; }
      return;
    }
    const embedded = s['x-kubernetes-embedded-resource'] === true;
    const ap = additionalSchema(s);
    for (const k of Object.keys(x)) {
      if (embedded && metaFields.has(k)) continue;
      const p = s.properties?.[k];
      if (p) prune(x[k], p, join(path, k), unknown);
      else if (s.additionalProperties !== undefined) prune(x[k], ap, join(path, k), unknown);
      else if (!keep) {
        if (!metaFields.has(k) || path !== '') unknown.push(join(path, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    const items = s ? itemsSchema(s) : undefined;
    x.forEach((v, i) => prune(v, items, `${path}[${i}]`, unknown, keep));
  }
}

function fieldSchema(k: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return s?.properties?.[k] ?? additionalSchema(s);
}

function pruneNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const fs = fieldSchema(k, s);
      if (v === null && fs && fs.nullable !== true && fs.default === undefined) delete x[k];
      else pruneNulls(v, fs);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNulls(v, s ? itemsSchema(s) : undefined);
  }
}
