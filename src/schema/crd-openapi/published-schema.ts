// A CRD version's openAPIV3Schema as apiextensions-apiserver publishes it: only what a
// structural schema holds survives (example, id, $schema, definitions... do not), an
// x-kubernetes-int-or-string without its anyOf gets the anyOf [integer, string] it stands for,
// and for OpenAPI v2 the parts Swagger 2.0 and kubectl's v2 reader cannot take are removed.

import type { JSONSchemaProps } from '../structural/types.ts';

type Json = Record<string, unknown>;

// the keywords of a structural schema (generic, value validation, extensions), in no particular order
const kept = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'default', 'externalDocs', 'enum', 'pattern',
  'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'maxItems', 'minItems',
  'uniqueItems', 'multipleOf', 'maxProperties', 'minProperties', 'required', 'properties', 'additionalProperties',
  'items', 'allOf', 'anyOf', 'oneOf', 'not',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
]);
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf']);

function copy(s: JSONSchemaProps): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (!kept.has(k) || v === undefined) continue;
    // false extensions are what Go leaves out
    if (k.startsWith('x-kubernetes-') && v === false) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Record<string, JSONSchemaProps>).map(([p, ps]) => [p, copy(ps)]));
    else if (schemaLists.has(k)) out[k] = (v as JSONSchemaProps[]).map(copy);
    else if (k === 'not' || k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = Array.isArray(v) ? v.map(copy) : copy(v as JSONSchemaProps);
    else out[k] = v;
  }
  return out;
}

const intOrString = (): Json[] => [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const [a, b] = anyOf as Json[];
  return a?.type === 'integer' && b?.type === 'string' && Object.keys(a).length === 1 && Object.keys(b).length === 1;
}

/** Structural.Unfold: the anyOf an int-or-string implies, unless the schema already spells it */
function unfold(s: Json): void {
  for (const child of children(s)) unfold(child);
  if (s['x-kubernetes-int-or-string'] !== true) return;
  if (isIntOrStringAnyOf(s.anyOf)) return;
  const allOf = s.allOf as Json[] | undefined;
  if (allOf && isIntOrStringAnyOf(allOf[0]?.anyOf)) return;
  if (s.anyOf === undefined) s.anyOf = intOrString();
  else s.allOf = [{ anyOf: intOrString() }, ...(allOf ?? [])];
}

/** the structural children: properties, items, additionalProperties (junctors hold no generics to unfold) */
function children(s: Json): Json[] {
  const out: Json[] = [];
  if (s.properties) out.push(...Object.values(s.properties as Record<string, Json>));
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.push(s.items as Json);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.push(s.additionalProperties as Json);
  return out;
}

/** the schema as the v3 document carries it: structural keywords only, int-or-string unfolded */
export function publishedSchema(schema: JSONSchemaProps): Json {
  const out = copy(schema);
  unfold(out);
  return out;
}

/**
 * ToStructuralOpenAPIV2: junctors dropped; nullable and preserve-unknown-fields values lose
 * their properties and items (kubectl's v2 reader rejects an untyped value that has them), and
 * their type where kubectl cannot read it; a nullable field is no longer required.
 */
export function toOpenAPIV2(published: Json): Json {
  const s: Json = { ...published };
  delete s.allOf; delete s.anyOf; delete s.oneOf; delete s.not;
  if (s.properties) s.properties = Object.fromEntries(Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, toOpenAPIV2(v)]));
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) s.items = toOpenAPIV2(s.items as Json);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') s.additionalProperties = toOpenAPIV2(s.additionalProperties as Json);
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s.nullable === true) {
    delete s.type; delete s.nullable; delete s.items; delete s.properties;
  }
  if (preserve) { delete s.items; delete s.properties; }
  if (s.items === undefined && s.type === 'array') delete s.type;
  if (preserve && s.type === 'object') delete s.type;
  // judged on the children as they were (the parent is visited first); none once the parent dropped them
  const props = s.properties ? published.properties as Record<string, Json> : undefined;
  if (Array.isArray(s.required) && props) {
    const required = (s.required as string[]).filter(f => props[f]?.nullable !== true);
    if (required.length) s.required = required; else delete s.required;
  }
  const ap = published.additionalProperties;
  if (ap && typeof ap === 'object' && (ap as Json).nullable === true) delete s.required;
  return s;
}

/** handler.PruneDefaults: Swagger 2.0 documents are served without any schema's `default` */
export function withoutDefaults(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'default') continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([p, ps]) => [p, withoutDefaults(ps)]));
    else if (schemaLists.has(k)) out[k] = (v as Json[]).map(withoutDefaults);
    else if ((k === 'items' || k === 'not' || k === 'additionalProperties') && v && typeof v === 'object') out[k] = Array.isArray(v) ? v.map(x => withoutDefaults(x as Json)) : withoutDefaults(v as Json);
    else out[k] = v;
  }
  return out;
}
