// Defaults of a structural schema applied as apiextensions-apiserver applies them, on every
// decode of a request body and on every read from storage: a property with a default is set
// when it is absent or null without being nullable; list items and additionalProperties values
// that are null without being nullable take their schema's default (or stay null, to be pruned).
// Defaults apply top-down, so a defaulted object gets its own properties' defaults too.

import { additionalSchema, isObject, itemsSchema, type JSONSchemaProps } from './types.ts';

const nonNullableNull = (x: unknown, s: JSONSchemaProps | undefined) => x === null && s !== undefined && s.nullable !== true;

/** a copy of `object` with the defaults of `schema` (a version's openAPIV3Schema) applied */
export function defaultCustomResource<T>(schema: JSONSchemaProps | undefined, object: T): T {
  const copy = structuredClone(object);
  applyDefaults(copy, schema);
  return copy;
}

/** `object` given the defaults of `schema` in place (an object of the caller's own, freshly decoded) */
export function defaultInPlace(schema: JSONSchemaProps | undefined, object: unknown): void {
  applyDefaults(object, schema);
}

/** whether a schema declares any default, so objects read need no defaulting walk when it has none */
export function schemaHasDefaults(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(schemaHasDefaults);
  if (!isObject(schema)) return false;
  for (const [k, v] of Object.entries(schema)) {
    // `default` is a keyword only where it is not a property's name or inside a value
    if (k === 'default' && v !== undefined) return true;
    if (k === 'properties' && isObject(v) && Object.values(v).some(schemaHasDefaults)) return true;
    if ((k === 'items' || k === 'additionalProperties' || k === 'allOf' || k === 'anyOf' || k === 'oneOf' || k === 'not') && schemaHasDefaults(v)) return true;
  }
  return false;
}

function applyDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    const props = s.properties ?? {};
    for (const [k, p] of Object.entries(props)) {
      if (p.default === undefined) continue;
      if (!(k in x) || nonNullableNull(x[k], p)) x[k] = structuredClone(p.default);
    }
    const ap = additionalSchema(s);
    for (const k of Object.keys(x)) {
      if (props[k]) applyDefaults(x[k], props[k]);
      else if (ap) {
        if (nonNullableNull(x[k], ap)) x[k] = structuredClone(ap.default ?? null);
        applyDefaults(x[k], ap);
      }
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items)) x[i] = structuredClone(items!.default ?? null);
      applyDefaults(x[i], items);
    }
  }
}
