// What makes an openAPIV3Schema structural, as apiextensions-apiserver's ValidateStructural
// decides it: every specified node has a type (or is int-or-string / preserves unknown
// fields), value validations under allOf/anyOf/oneOf/not only restrict what the structural
// part already declares, metadata at the root says nothing but name and generateName, and the
// x-kubernetes-* extensions do not contradict each other. Errors come sorted as Kubernetes
// sorts them (by their text), so a CRD refused here reads as kube-apiserver refuses it.

import { fieldErrorMessage, type FieldError } from '../../api/status.ts';
import { compileRe2 } from '../re2-pattern.ts';
import { additionalSchema, child, index, itemsSchema, key, type JSONSchemaProps } from './types.ts';

type Level = 'root' | 'item' | 'field';

const req = (field: string, detail: string): FieldError => ({ type: 'FieldValueRequired', field, detail });
const forbid = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const bad = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });

/**
 * The structural-schema errors of `schema` (a CRD version's openAPIV3Schema) at `fieldPath`
 * (e.g. `spec.versions[0].schema.openAPIV3Schema`); empty when the schema is structural.
 */
export function structuralSchemaErrors(schema: JSONSchemaProps, fieldPath: string): FieldError[] {
  const errs = [...invariants(schema, 'root', fieldPath), ...completeness(schema, schema, fieldPath, fieldPath)];
  const text = errs.map(e => [fieldErrorMessage(e), e] as const);
  text.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return text.map(([, e]) => e);
}

function invariants(s: JSONSchemaProps | undefined, lvl: Level, path: string): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === 'array' && !s.items) errs.push(req(child(path, 'items'), 'must be specified'));
  errs.push(...invariants(itemsSchema(s), 'item', child(path, 'items')));
  for (const [k, p] of Object.entries(s.properties ?? {})) errs.push(...invariants(p, 'field', key(child(path, 'properties'), k)));
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbid(child(path, 'additionalProperties'), 'must not be used at the root'));
    errs.push(...invariants(additionalSchema(s), 'field', child(path, 'additionalProperties')));
  }
  if (intOrString && preserve) errs.push(bad(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(bad(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(s.allOf?.[0]?.anyOf), path));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    if (!type) errs.push(req(child(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(bad(child(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errs.push(req(child(path, 'type'), `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(forbid(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type && type !== 'object') errs.push(bad(child(path, 'type'), type, 'must be object at the root'));
  const props = s.properties ?? {};
  for (const name of ['kind', 'apiVersion']) {
    if (props[name] && checkMetadata && props[name].type !== 'string') {
      errs.push(bad(child(key(child(path, 'properties'), name), 'type'), props[name].type ?? '', 'must be string'));
    }
  }
  if (props.metadata) errs.push(...metadataInvariants(props.metadata, checkMetadata, lvl, key(child(path, 'properties'), 'metadata')));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(req(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

// what the structural form of a schema does not keep, or what metadata may set anyway
const notStructural = new Set(['type', 'default', 'example', 'externalDocs', 'id', '$schema']);
const isZero = (v: unknown) => v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0);

// ObjectMeta is implicit: at the root a schema may only narrow name and generateName
function metadataInvariants(m: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && m.type !== 'object') errs.push(bad(child(path, 'type'), m.type ?? '', 'must be object'));
  if (lvl !== 'root') return errs;
  const names = Object.keys(m.properties ?? {});
  const onlyNames = names.every(n => n === 'name' || n === 'generateName');
  const rest = Object.entries(m).filter(([k, v]) => !notStructural.has(k) && !isZero(v) && !(k === 'properties' && onlyNames));
  if (rest.length > 0) errs.push(forbid(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return errs;
}

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const only = (s: JSONSchemaProps, t: string) => Object.keys(s).length === 1 && s.type === t;
  return only(anyOf[0]!, 'integer') && only(anyOf[1]!, 'string');
}

/** the value validations of a node: the logical junctors and the pattern */
function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (v.anyOf ?? []).forEach((n, i) => errs.push(...nested(n, false, index(child(path, 'anyOf'), i))));
  (v.allOf ?? []).forEach((n, i) => errs.push(...nested(n, skipFirstAllOfAnyOf && i === 0, index(child(path, 'allOf'), i))));
  (v.oneOf ?? []).forEach((n, i) => errs.push(...nested(n, false, index(child(path, 'oneOf'), i))));
  if (v.not) errs.push(...nested(v.not, false, child(path, 'not')));
  if (v.pattern) {
    try {
      compileRe2(v.pattern);
    } catch (err) {
      errs.push(bad(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errs;
}

// what may not appear inside allOf/anyOf/oneOf/not: everything that shapes the value
const nestedForbidden: [string, (v: unknown) => boolean, string][] = [
  ['type', v => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['default', v => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['title', v => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['description', v => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['nullable', v => v === true, 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', v => v === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', v => v === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', v => v === true, 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', v => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
  ['x-kubernetes-list-type', v => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['x-kubernetes-map-type', v => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['x-kubernetes-validations', v => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
];

function nested(v: JSONSchemaProps | undefined, skipAnyOf: boolean, path: string): FieldError[] {
  if (!v) return [];
  const errs = [...valueValidation(v, skipAnyOf, false, path)];
  const items = itemsSchema(v);
  if (items) errs.push(...nested(items, false, child(path, 'items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, key(child(path, 'properties'), k)));
  if (v.additionalProperties !== undefined) errs.push(forbid(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  for (const [name, test, detail] of nestedForbidden) if (test(v[name])) errs.push(forbid(child(path, name), detail));
  if (v.properties?.metadata) errs.push(forbid(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errs;
}

// every field a value validation names must exist in the structural part (checked from the root)
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [req(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (v.not) errs.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    (v[j] ?? []).forEach((n, i) => errs.push(...nestedCompleteness(n, s, sPath, index(child(vPath, j), i))));
  }
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [req(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const sp = s.properties?.[k];
    const vp = key(child(vPath, 'properties'), k);
    if (!sp) errs.push(req(key(child(sPath, 'properties'), k), `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(p, sp, key(child(sPath, 'properties'), k), vp));
  }
  return errs;
}
