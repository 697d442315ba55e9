// Objects marked x-kubernetes-embedded-resource are whole Kubernetes objects inside a custom
// resource: apiextensions-apiserver's objectmeta validation wants their apiVersion and kind
// (a group/version and a kind that lowercases to a DNS-1035 label) and checks their metadata
// as an object's metadata is checked on create (name and generateName as path segments,
// namespace, labels and annotations). The resource's own metadata is the registry's business.

import type { FieldError } from '../../api/status.ts';
import { dns1035Label, dns1123Label, pathSegmentName } from '../../api/names.ts';
import { metadataLabelValueErrors, qualifiedNameErrors } from '../../api/label-rules.ts';
import { additionalSchema, child, index, isObject, itemsSchema, type JSONSchemaProps } from './types.ts';

const bad = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });

/** errors of the embedded resources within `obj` (the custom resource, at the root path '') */
export function embeddedResourceErrors(s: JSONSchemaProps | undefined, obj: unknown, path = ''): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (isObject(obj)) {
    if (s['x-kubernetes-embedded-resource'] === true) errs.push(...embedded(obj, path));
    const ap = additionalSchema(s);
    for (const [k, v] of Object.entries(obj)) {
      const p = s.properties?.[k];
      if (p) errs.push(...embeddedResourceErrors(p, v, child(path, k)));
      else if (ap) errs.push(...embeddedResourceErrors(ap, v, `${path}[${k}]`));
    }
  } else if (Array.isArray(obj)) {
    const items = itemsSchema(s);
    obj.forEach((v, i) => errs.push(...embeddedResourceErrors(items, v, index(path, i))));
  }
  return errs;
}

function groupVersionError(v: string): string | undefined {
  const parts = v.split('/');
  if (parts.length <= 2) return undefined;
  return `unexpected GroupVersion string: ${v}`;
}

function embedded(x: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push({ type: 'FieldValueRequired', field: child(path, 'apiVersion') });
  if (!('kind' in x)) errs.push({ type: 'FieldValueRequired', field: child(path, 'kind') });
  for (const [k, v] of Object.entries(x)) {
    const at = child(path, k);
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(bad(at, v, 'must be a string'));
      else if (v === '') errs.push(bad(at, v, 'must not be empty'));
      else { const e = groupVersionError(v); if (e) errs.push(bad(at, v, e)); }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(bad(at, v, 'must be a string'));
      else if (v === '') errs.push(bad(at, v, 'must not be empty'));
      else { const e = dns1035Label(v.toLowerCase()); if (e.length) errs.push(bad(at, v, `may have mixed case, but should otherwise match: ${e.join(',')}`)); }
    } else if (k === 'metadata') {
      errs.push(...metadata(v, at));
    }
  }
  return errs;
}

const stringFields = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'];

// the Go type names %T gives decoded JSON, and the JSON words of encoding/json's errors
const goType = (v: unknown) => (typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? (Number.isInteger(v) ? 'int64' : 'float64') : Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}');
const jsonWord = (v: unknown) => (typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'number' : Array.isArray(v) ? 'array' : 'object');
const unmarshal = (v: unknown, field: string, type: string) => `json: cannot unmarshal ${jsonWord(v)} into Go struct field ObjectMeta.${field} of type ${type}`;

// metadata that does not decode as ObjectMeta is one error on metadata, in the decoder's words
function decodeError(m: Record<string, unknown>): string | undefined {
  for (const f of stringFields) if (f in m && m[f] !== null && typeof m[f] !== 'string') return unmarshal(m[f], f, 'string');
  for (const f of ['labels', 'annotations']) {
    const v = m[f];
    if (v === null || v === undefined) continue;
    if (!isObject(v)) return unmarshal(v, f, 'map[string]string');
    for (const x of Object.values(v)) if (x !== null && typeof x !== 'string') return unmarshal(x, f, 'string');
  }
  return undefined;
}

function metadata(m: unknown, path: string): FieldError[] {
  if (m === null || m === undefined) return [];
  if (!isObject(m)) return [bad(path, m, `invalid metadata: expected object, got ${goType(m)}`)];
  const decode = decodeError(m);
  if (decode) return [bad(path, m, decode)];
  const errs: FieldError[] = [];
  const name = (m.name as string | undefined) ?? '';
  const generateName = (m.generateName as string | undefined) ?? '';
  if (generateName) for (const d of prefixErrors(generateName)) errs.push(bad(child(path, 'generateName'), generateName, d));
  if (name) for (const d of pathSegmentName(name)) errs.push(bad(child(path, 'name'), name, d));
  const ns = (m.namespace as string | undefined) ?? '';
  if (ns) for (const d of dns1123Label(ns)) errs.push(bad(child(path, 'namespace'), ns, d));
  errs.push(...labels(m.labels, child(path, 'labels')));
  errs.push(...annotations(m.annotations, child(path, 'annotations')));
  return errs;
}

// a generateName prefix gets random characters appended: '.' and '..' are fine as a prefix
function prefixErrors(v: string): string[] {
  return ['/', '%'].filter(c => v.includes(c)).map(c => `may not contain '${c}'`);
}

function labels(l: unknown, path: string): FieldError[] {
  if (!isObject(l)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(l)) {
    for (const d of qualifiedNameErrors(k)) errs.push(bad(path, k, d));
    if (typeof v === 'string') for (const d of metadataLabelValueErrors(v)) errs.push(bad(path, v, d));
  }
  return errs;
}

function annotations(a: unknown, path: string): FieldError[] {
  if (!isObject(a)) return [];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(a)) {
    for (const d of qualifiedNameErrors(k.toLowerCase())) errs.push(bad(path, k, d));
    total += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (total > 256 * 1024) errs.push({ type: 'FieldValueTooLong', field: path, detail: 'may not be more than 262144 bytes' });
  return errs;
}
