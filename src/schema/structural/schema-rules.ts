// The per-node rules apiextensions-apiserver applies to a CRD's openAPIV3Schema before it even
// asks whether the schema is structural (ValidateCustomResourceDefinitionOpenAPISchema): the
// OpenAPI keywords Kubernetes does not support, the x-kubernetes-* combinations that make no
// sense, and what the root may hold when the status subresource is enabled.

import type { FieldError } from '../../api/status.ts';
import { additionalSchema, child, index, itemsSchema, key, type JSONSchemaProps } from './types.ts';

const req = (field: string, detail: string): FieldError => ({ type: 'FieldValueRequired', field, detail });
const forbid = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const bad = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });
const quotedList = (vs: string[]) => `supported values: ${vs.map(v => JSON.stringify(v)).join(', ')}`;
const notSupported = (field: string, value: unknown, vs: string[]): FieldError => ({ type: 'FieldValueNotSupported', field, value, detail: quotedList(vs) });

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

// the JSONSchemaProps fields (by their Go names) a root may carry with the status subresource
const allowedAtRoot = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];
const jsonToGo: Record<string, string> = {
  'x-kubernetes-preserve-unknown-fields': 'XPreserveUnknownFields', 'x-kubernetes-validations': 'XValidations',
  'x-kubernetes-embedded-resource': 'XEmbeddedResource', 'x-kubernetes-int-or-string': 'XIntOrString',
  'x-kubernetes-list-map-keys': 'XListMapKeys', 'x-kubernetes-list-type': 'XListType', 'x-kubernetes-map-type': 'XMapType',
  $ref: 'Ref', $schema: 'Schema', id: 'ID',
};
const goName = (k: string) => jsonToGo[k] ?? k[0]!.toUpperCase() + k.slice(1);

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export interface SchemaRuleOptions {
  /** the version has the status subresource: the root may then only be a plain object schema */
  statusSubresource?: boolean;
}

/** the rules of the root schema (at `fieldPath`, e.g. `spec.versions[0].schema`) and all below it */
export function schemaRuleErrors(schema: JSONSchemaProps, fieldPath: string, opts: SchemaRuleOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const rootPath = child(fieldPath, 'openAPIV3Schema');
  if (opts.statusSubresource) {
    for (const [k, v] of Object.entries(schema)) {
      if (isZero(v)) continue;
      if (k === 'type') {
        if (v !== 'object') { errs.push(bad(child(rootPath, 'type'), v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')); break; }
        continue;
      }
      if (!allowedAtRoot.includes(goName(k))) {
        errs.push(bad(rootPath, schema, `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable === true) errs.push(forbid(child(rootPath, 'nullable'), 'nullable cannot be true at the root'));
  errs.push(...node(schema, rootPath, { root: true, insideMeta: false }));
  return errs;
}

interface Ctx { root: boolean; insideMeta: boolean; noDefaults?: string }

function node(s: JSONSchemaProps | undefined, path: string, ctx: Ctx): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (s.uniqueItems === true) errs.push(forbid(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    if (Object.keys(s.properties ?? {}).length > 0 && (ap === false || typeof ap === 'object')) {
      errs.push(forbid(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    errs.push(...node(additionalSchema(s), child(path, 'additionalProperties'), { root: false, insideMeta: ctx.insideMeta, noDefaults: ctx.insideMeta ? 'inside additionalProperties applying to object metadata' : ctx.noDefaults }));
  } else {
    errs.push(...keywords(s, path, ctx));
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const meta = (ctx.root || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(k);
      const sub: Ctx = { root: false, insideMeta: ctx.insideMeta || meta, noDefaults: meta && ctx.root ? `in top-level ${k}` : ctx.noDefaults };
      errs.push(...node(p, key(child(path, 'properties'), k), sub));
    }
    const inner: Ctx = { ...ctx, root: false };
    if (s.not) errs.push(...node(s.not, child(path, 'not'), inner));
    for (const j of ['allOf', 'oneOf', 'anyOf'] as const) (s[j] ?? []).forEach((n, i) => errs.push(...node(n, index(child(path, j), i), inner)));
    const items = s.items;
    if (Array.isArray(items)) items.forEach((n, i) => errs.push(...node(n, index(child(path, 'items'), i), inner)));
    else if (items) errs.push(...node(items, child(path, 'items'), inner));
  }
  errs.push(...extensions(s, path));
  return errs;
}

// the OpenAPI keywords a CRD schema may not use, checked where additionalProperties is absent
function keywords(s: JSONSchemaProps, path: string, ctx: Ctx): FieldError[] {
  const errs: FieldError[] = [];
  if (s.type && !openapiV3Types.includes(s.type) && s.type !== 'null') errs.push(notSupported(child(path, 'type'), s.type, openapiV3Types));
  if (s.default !== undefined && ctx.noDefaults) errs.push(forbid(child(path, 'default'), `must not be set ${ctx.noDefaults}`));
  if (s.id) errs.push(forbid(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbid(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (!isZero(s.patternProperties)) errs.push(forbid(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (!isZero(s.definitions)) errs.push(forbid(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbid(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(forbid(child(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbid(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbid(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideMeta && s['x-kubernetes-embedded-resource'] === true) errs.push(forbid(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errs;
}

function extensions(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(bad(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  if (mapType !== undefined && type !== 'object') {
    errs.push(type ? bad(child(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified') : req(child(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const items = itemsSchema(s);
  if (listType !== undefined && type !== 'array') {
    errs.push(type ? bad(child(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified') : req(child(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(bad(child(child(path, 'items'), 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(bad(child(child(path, 'items'), 'x-kubernetes-map-type'), listType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errs.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  if (mapKeys.length > 0) {
    if (listType === undefined) errs.push(req(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(bad(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') errs.push(...listMapRules(s, mapKeys, path));
  if (items && (listType === 'set' || listType === 'map')) errs.push(...setAndMapItemRules(items, listType, mapKeys, path));
  return errs;
}

function listMapRules(s: JSONSchemaProps, mapKeys: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (mapKeys.length === 0) errs.push(req(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined) errs.push(req(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
  if (Array.isArray(s.items)) errs.push(bad(child(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
  const items = itemsSchema(s);
  if (items && items.type !== 'object') errs.push(bad(child(child(path, 'items'), 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
  if (items && items.type === 'object') {
    const seen = new Set<string>();
    for (const k of mapKeys) {
      const p = items.properties?.[k];
      if (p) {
        if (p.type === 'array' || p.type === 'object') errs.push(bad(child(key(child(child(path, 'items'), 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      } else {
        errs.push(bad(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
      }
      if (seen.has(k)) errs.push(bad(child(path, 'x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
      seen.add(k);
    }
  }
  return errs;
}

function setAndMapItemRules(items: JSONSchemaProps, listType: string, mapKeys: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (items.nullable === true) errs.push(forbid(child(child(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errs;
  const required = new Set(items.required ?? []);
  for (const k of mapKeys) {
    const p = items.properties?.[k];
    if (!p) continue;
    const at = key(child(child(path, 'items'), 'properties'), k);
    if (!required.has(k) && p.default === undefined) errs.push(req(child(at, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    if (p.nullable === true) errs.push(forbid(child(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errs;
}
