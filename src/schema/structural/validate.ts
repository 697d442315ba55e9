// Validation of a custom resource against its version's schema, as kube-openapi's
// SchemaValidator runs it for apiextensions-apiserver and as kubeOpenAPIResultToFieldErrors
// turns its results into field errors: per node the type, the junctors (allOf/anyOf/oneOf/
// not), string lengths and pattern, the format, number bounds, array bounds and uniqueness,
// enum, then object bounds, properties and required. Messages name the value's path "in body"
// exactly as kube-apiserver prints them (`spec.replicas in body must be of type integer:
// "string"`); errors that are not about one field land on `<nil>`, as Kubernetes' do.

import type { FieldError } from '../../api/status.ts';
import { compileRe2 } from '../re2-pattern.ts';
import { effectiveFormat, stringMatchesFormat } from './formats.ts';
import { goFloat } from './go-format.ts';
import { additionalSchema, itemsSchema, isObject, type JSONSchemaProps } from './types.ts';

const nilField = '<nil>';
const fieldOf = (name: string) => name.replace(/^\./, '') || nilField;

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  // the decoder holds whole numbers as int64 when they fit, other numbers as float64
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'integer' : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** the types a node accepts: int-or-string widens to both */
function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return s.type ? [s.type] : [];
}

const typeMessage = (name: string, type: string, got: string) => `${name} in body must be of type ${type}: ${JSON.stringify(got)}`;

function typeErrors(s: JSONSchemaProps, data: unknown, name: string): FieldError[] {
  const types = typesOf(s);
  const format = effectiveFormat(s.type, s.format);
  if (types.length === 0 && !format) return [];
  const kind = kindOf(data);
  const invalid = (type: string, got: string): FieldError[] => [{ type: 'FieldValueTypeInvalid', field: fieldOf(name), value: got, detail: typeMessage(name, type, got) }];
  if (kind === 'null') return types.length > 0 && s.nullable !== true ? invalid(types.join(','), 'null') : [];
  const dataFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
  // a float64 holding a whole number within JSON's exact integers passes as an integer
  const floatInt = kind === 'number' && Number.isInteger(data) && Math.abs(data as number) <= 2 ** 53 && types.includes('integer');
  const intFloat = kind === 'integer' && types.includes('number');
  if (kind !== 'string' && kind !== 'array' && format && !(types.includes(kind) || dataFormat === format || floatInt || intFloat)) return invalid(format, dataFormat);
  if (!types.includes('number') && !types.includes('integer') && format && (kind === 'string' || kind === 'array')) return [];
  if (!(types.includes(kind) || floatInt || intFloat)) return invalid(types.join(','), kind);
  return [];
}

function stringErrors(s: JSONSchemaProps, v: string, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const field = fieldOf(name);
  const runes = [...v].length;
  if (s.maxLength !== undefined && runes > s.maxLength) errs.push({ type: 'FieldValueTooLong', field, detail: `may not be more than ${s.maxLength} bytes` });
  if (s.minLength !== undefined && runes < s.minLength) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `${name} in body should be at least ${s.minLength} chars long` });
  if (s.pattern) {
    // a pattern RE2 refuses fails every value, the reason inside the quotes as kube-openapi has it
    let re: RegExp | undefined;
    let why = '';
    try { re = patternRegExp(s.pattern); } catch (err) { why = `, but pattern is invalid: ${(err as Error).message}`; }
    if (!re || !re.test(v)) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `${name} in body should match '${s.pattern}${why}'` });
  }
  return errs;
}

// compileRe2's expressions are global (for findAll): stateful in test(), so a plain copy is kept
const patterns = new Map<string, RegExp>();
function patternRegExp(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) {
    const g = compileRe2(pattern);
    re = new RegExp(g.source, g.flags.replace('g', ''));
    if (patterns.size > 500) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}

const int32Range = (n: number) => n >= -2147483648 && n <= 2147483647;
const float32Max = 3.4028234663852886e38;

function numberErrors(s: JSONSchemaProps, v: number, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const field = fieldOf(name);
  const isInt = Number.isInteger(v) && Math.abs(v) < 2 ** 63;
  // the range check knows the type only when there is exactly one
  const type = s['x-kubernetes-int-or-string'] === true ? '' : s.type ?? '';
  const format = type ? effectiveFormat(s.type, s.format) : '';
  const int64Range = (n: number) => n >= -(2 ** 63) && n < 2 ** 63;
  const fits = (n: number) => (type === 'integer' ? Number.isInteger(n) && int64Range(n) && (format !== 'int32' || int32Range(n)) : format !== 'float' || Math.abs(n) <= float32Max);
  if (!fits(v)) {
    const detail = format ? `Checked value must be of type ${type || 'number'} with format ${format} in ${name}` : `Checked value must be of type ${type || 'number'} (default format) in ${name}`;
    errs.push({ type: 'FieldValueInvalid', field: nilField, value: '', detail });
  }
  // bounds that fit the type compare natively (integers as integers), others as floats
  const show = (bound: number) => (isInt && fits(bound) ? String(Math.trunc(bound)) : goFloat(bound));
  const native = (bound: number) => (isInt && fits(bound) ? Math.trunc(bound) : bound);
  if (s.multipleOf !== undefined && s.multipleOf > 0) {
    const q = v / native(s.multipleOf);
    if (!Number.isInteger(q)) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `${name} in body should be a multiple of ${show(s.multipleOf)}` });
  }
  if (s.minimum !== undefined) {
    const min = native(s.minimum);
    if (s.exclusiveMinimum === true ? v <= min : v < min) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `${name} in body should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${show(s.minimum)}` });
  }
  if (s.maximum !== undefined) {
    const max = native(s.maximum);
    if (s.exclusiveMaximum === true ? v >= max : v > max) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: `${name} in body should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${show(s.maximum)}` });
  }
  return errs;
}

/** JSON equality as reflect.DeepEqual sees decoded JSON (key order aside) */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every(k => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

function arrayErrors(s: JSONSchemaProps, v: unknown[], name: string, old: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const field = fieldOf(name);
  const items = itemsSchema(s);
  if (items) v.forEach((x, i) => errs.push(...validateNode(items, x, `${name}[${i}]`, correlatedItem(s, x, old))));
  if (s.minItems !== undefined && v.length < s.minItems) errs.push({ type: 'FieldValueInvalid', field, value: v.length, detail: `${name} in body should have at least ${s.minItems} items` });
  if (s.maxItems !== undefined && v.length > s.maxItems) errs.push({ type: 'FieldValueTooMany', field, value: v.length, detail: `must have at most ${s.maxItems} items` });
  if (s.uniqueItems === true && v.some((x, i) => v.slice(0, i).some(y => jsonEqual(x, y)))) {
    errs.push({ type: 'FieldValueInvalid', field, value: '', detail: `${name} in body shouldn't contain duplicates` });
  }
  return errs;
}

function enumErrors(s: JSONSchemaProps, v: unknown, name: string): FieldError[] {
  if (!s.enum || s.enum.length === 0) return [];
  if (s.enum.some(e => e !== null && jsonEqual(e, v))) return [];
  const values = s.enum.map(e => JSON.stringify(typeof e === 'string' ? e : JSON.stringify(e)));
  return [{ type: 'FieldValueNotSupported', field: fieldOf(name), value: v, detail: `supported values: ${values.join(', ')}` }];
}

function objectErrors(s: JSONSchemaProps, v: Record<string, unknown>, name: string, old: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const field = fieldOf(name);
  const keys = Object.keys(v);
  if (s.minProperties !== undefined && keys.length < s.minProperties) errs.push({ type: 'FieldValueInvalid', field, value: keys.length, detail: `${name} in body should have at least ${s.minProperties} properties` });
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) errs.push({ type: 'FieldValueTooMany', field, value: keys.length, detail: `must have at most ${s.maxProperties} items` });
  const props = s.properties ?? {};
  if (s.additionalProperties === false) {
    for (const k of keys) if (!(k in props)) errs.push({ type: 'FieldValueInvalid', field, value: k, detail: `${name}.${k} in body is a forbidden property` });
  } else {
    const ap = additionalSchema(s);
    if (ap) for (const k of keys) if (!(k in props)) errs.push(...validateNode(ap, v[k], `${name}.${k}`, correlatedField(old, k, name)));
  }
  for (const [k, p] of Object.entries(props)) if (k in v) errs.push(...validateNode(p, v[k], name ? `${name}.${k}` : k, correlatedField(old, k, name)));
  for (const k of s.required ?? []) if (!(k in v)) errs.push({ type: 'FieldValueRequired', field: fieldOf(`${name}.${k}`) });
  return errs;
}

function junctorErrors(s: JSONSchemaProps, v: unknown, name: string, old: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const general = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: nilField, value: '', detail });
  if (s.anyOf && s.anyOf.length > 0) {
    const results = s.anyOf.map(n => validateNode(n, v, name, old));
    if (!results.some(r => r.length === 0)) errs.push(general(`${JSON.stringify(name)} must validate at least one schema (anyOf)`), ...results[0]!);
  }
  if (s.oneOf && s.oneOf.length > 0) {
    const results = s.oneOf.map(n => validateNode(n, v, name, old));
    const valid = results.filter(r => r.length === 0).length;
    if (valid !== 1) {
      errs.push(general(`${JSON.stringify(name)} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`));
      if (valid === 0) errs.push(...results[0]!);
    }
  }
  if (s.allOf && s.allOf.length > 0) {
    const results = s.allOf.map(n => validateNode(n, v, name, old));
    for (const r of results) errs.push(...r);
    const valid = results.filter(r => r.length === 0).length;
    if (valid !== results.length) errs.push(general(`${JSON.stringify(name)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  if (s.not && validateNode(s.not, v, name, old).length === 0) errs.push(general(`${JSON.stringify(name)} must not validate the schema (not)`));
  return errs;
}

/**
 * The errors of one value against one schema node, `name` being kube-openapi's path of it.
 * With `old` (the correlated value of the object being updated), errors of a node whose value
 * did not change are dropped: CRD validation ratcheting, on by default since Kubernetes 1.33.
 */
export function validateNode(s: JSONSchemaProps, v: unknown, name: string, old: unknown = noOld): FieldError[] {
  const errs = nodeErrors(s, v, name, old);
  return errs.length > 0 && old !== noOld && jsonEqual(v, old) ? [] : errs;
}

function nodeErrors(s: JSONSchemaProps, v: unknown, name: string, old: unknown): FieldError[] {
  if (v === null || v === undefined) return [...typeErrors(s, null, name), ...enumErrors(s, null, name)];
  const errs = [...typeErrors(s, v, name), ...junctorErrors(s, v, name, old)];
  if (typeof v === 'string') {
    errs.push(...stringErrors(s, v, name));
    const format = effectiveFormat(s.type, s.format);
    if (format && !['int32', 'int64', 'float', 'double'].includes(format) && !stringMatchesFormat(format, v)) {
      errs.push({ type: 'FieldValueTypeInvalid', field: fieldOf(name), value: v, detail: typeMessage(name, format, v) });
    }
  }
  if (typeof v === 'number') errs.push(...numberErrors(s, v, name));
  if (Array.isArray(v)) errs.push(...arrayErrors(s, v, name, old));
  errs.push(...enumErrors(s, v, name));
  if (isObject(v)) errs.push(...objectErrors(s, v, name, old));
  return errs;
}

/** no old value: a create, or a part of an update that correlates with nothing */
export const noOld: unique symbol = Symbol('no old value');

// the resource's apiVersion and kind are never ratcheted
function correlatedField(old: unknown, k: string, name: string): unknown {
  if (!isObject(old) || !(k in old)) return noOld;
  return name === '' && (k === 'apiVersion' || k === 'kind') ? noOld : old[k];
}

// only items of map lists (by their keys) and sets (by value) correlate; atomic lists do not
function correlatedItem(s: JSONSchemaProps, item: unknown, old: unknown): unknown {
  if (!Array.isArray(old)) return noOld;
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') return old.some(o => jsonEqual(o, item)) ? item : noOld;
  if (listType !== 'map' || !isObject(item)) return noOld;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const match = old.find(o => isObject(o) && keys.every(k => jsonEqual(o[k], item[k])));
  return match === undefined ? noOld : match;
}
