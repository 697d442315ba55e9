// x-kubernetes-list-type=set and =map as apiextensions-apiserver's listtype validation checks
// them after the schema: a set repeats no item, a map repeats no key (its
// x-kubernetes-list-map-keys), each duplicate reported once at the index of its second
// occurrence, with the duplicated value (a map's key as an object of the key fields).

import type { FieldError } from '../../api/status.ts';
import { additionalSchema, child, index, isObject, itemsSchema, type JSONSchemaProps } from './types.ts';

/** the set and map list errors of `obj` (an object at `path`, '' for the resource) */
export function listSetAndMapErrors(s: JSONSchemaProps | undefined, obj: unknown, path = ''): FieldError[] {
  if (!s || !isObject(obj)) return [];
  const errs: FieldError[] = [];
  const ap = additionalSchema(s);
  if (ap) for (const [k, v] of Object.entries(obj)) errs.push(...walk(ap, v, `${path}[${k}]`));
  const props = s.properties;
  if (props) for (const [k, v] of Object.entries(obj)) if (props[k]) errs.push(...walk(props[k], v, child(path, k)));
  return errs;
}

function walk(s: JSONSchemaProps, v: unknown, path: string): FieldError[] {
  if (Array.isArray(v)) return arrayErrors(s, v, path);
  if (isObject(v)) return listSetAndMapErrors(s, v, path);
  return [];
}

function arrayErrors(s: JSONSchemaProps, v: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') for (const i of repeated(v)) errs.push(dup(index(path, i), v[i]));
  if (listType === 'map') errs.push(...mapErrors(s, v, path));
  const items = itemsSchema(s);
  if (items) v.forEach((x, i) => errs.push(...walk(items, x, index(path, i))));
  return errs;
}

const dup = (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value });

// JSON text identifies compound values; scalars compare by kind and value (1 and "1" differ)
const identity = (x: unknown) => (typeof x === 'object' && x !== null ? `c${JSON.stringify(canonical(x))}` : `s${typeof x}:${String(x)}`);

// Go marshals maps with sorted keys, so key order never makes two items differ
function canonical(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canonical);
  if (isObject(x)) return Object.fromEntries(Object.keys(x).sort().map(k => [k, canonical(x[k])]));
  return x;
}

/** indices of second occurrences (a third or later occurrence is not reported again) */
function repeated(xs: unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  xs.forEach((x, i) => {
    const id = identity(x);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

function mapErrors(s: JSONSchemaProps, v: unknown[], path: string): FieldError[] {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x !== null && !isObject(x)) return [{ type: 'FieldValueInvalid', field: index(path, i), value: x, detail: 'must be an object for an array of list-type map' }];
  }
  if (v.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  const keys = v.map(x => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (f in x) key[f] = x[f];
    return key;
  });
  return repeated(keys).map(i => dup(index(path, i), keys[i]));
}
