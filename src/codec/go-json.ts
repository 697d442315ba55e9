// JSON as Go's encoding/json writes Kubernetes' types: fields in struct order, fields Go writes
// without `omitempty` present with their zero value, map keys sorted, `<` `>` `&` U+2028 U+2029
// escaped, Time in whole seconds and MicroTime in microseconds, UTC, quantities canonical. Clients compare these
// bytes (golden files, generated models that reject a missing required field), so every JSON
// body the server writes, and every object it stores, goes through here.

import { canonicalQuantity } from '../api/quantity.ts';
import { definition, definitionForKind, goFieldOrder } from '../schema/definitions.ts';
import { compileSchema, schemaNode, type SchemaNode } from '../schema/schema-walker.ts';


const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string) => ({ $ref: `#/definitions/${meta}${name}` });
const str = { type: 'string' };
const typeMeta = { kind: str, apiVersion: str };
const partialObjectMetadata = { type: 'object', properties: { ...typeMeta, metadata: ref('ObjectMeta') } };
// the views of the meta group that have no OpenAPI definition: their Go structs, fields in order
const views: Record<string, SchemaNode> = {
  PartialObjectMetadata: compileSchema(partialObjectMetadata),
  PartialObjectMetadataList: compileSchema({ type: 'object', properties: { ...typeMeta, metadata: ref('ListMeta'), items: { type: 'array', items: partialObjectMetadata } } }),
  Table: compileSchema({
    type: 'object',
    properties: {
      ...typeMeta,
      metadata: ref('ListMeta'),
      columnDefinitions: { type: 'array', items: { type: 'object', properties: { name: str, type: str, format: str, description: str, priority: { type: 'integer' } } } },
      rows: { type: 'array', items: { type: 'object', properties: { cells: { type: 'array', items: {} }, conditions: { type: 'array', items: { type: 'object', properties: { type: str, status: str, reason: str, message: str } } }, object: ref('RawExtension') } } },
    },
  }),
};

const escapable = /[<>&\u2028\u2029]/;
const escapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** a JSON string literal as Go writes it */
export function goString(s: string): string {
  return goEscape(JSON.stringify(s));
}

/** any JSON text with Go's escapes applied inside its strings (the characters never occur outside them) */
export function goEscape(json: string): string {
  return escapable.test(json) ? json.replace(/[<>&\u2028\u2029]/g, c => escapes[c]!) : json;
}

interface Shape {
  order: readonly string[];
  known: Set<string>;
  required: Set<string>;
}

const shapes = new Map<string, Shape>();

function shapeOf(defName: string): Shape {
  let s = shapes.get(defName);
  if (!s) {
    const def = definition(defName);
    const props = Object.keys((def?.['properties'] as Record<string, unknown> | undefined) ?? {});
    const order = goFieldOrder(defName) ?? props;
    shapes.set(defName, s = { order, known: new Set(order), required: new Set((def?.['required'] as string[] | undefined) ?? []) });
  }
  return s;
}

const microTime = `${meta}MicroTime`;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** a Time or MicroTime as Go marshals it; text that is not a time is kept as it is */
function goTime(v: string, micro: boolean): string {
  // the common case: already whole seconds in UTC
  if (!micro && v.length === 20 && v.endsWith('Z') && v[10] === 'T') return v;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  const head = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (!micro) return `${head}Z`;
  // microseconds come from the text: Date keeps milliseconds only
  const frac = /\.(\d+)/.exec(v)?.[1] ?? '';
  return `${head}.${(frac + '000000').slice(0, 6)}Z`;
}

// the same few quantities recur in every pod and node
const canonicalForms = new Map<string | number, string>();

/** a quantity as Kubernetes writes it after parsing it; malformed text (never stored) is kept */
function canonical(q: string | number): string {
  let c = canonicalForms.get(q);
  if (c === undefined) {
    c = canonicalQuantity(q) ?? String(q);
    if (canonicalForms.size > 4096) canonicalForms.clear();
    canonicalForms.set(q, c);
  }
  return c;
}

/** Go's zero value of a field the encoder writes although it is unset */
function zeroOf(node: SchemaNode | undefined): string {
  switch (node?.kind) {
    case 'string': case 'bytes': return '""';
    case 'integer': case 'number': case 'int-or-string': return '0';
    case 'quantity': return '"0"';
    case 'boolean': return 'false';
    case 'struct': return writeStruct({}, node, false);
    default: return 'null';
  }
}

function writeValue(v: unknown, node: SchemaNode | undefined): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      if (node?.kind === 'time') return goString(goTime(v, node.definition === microTime));
      if (node?.kind === 'quantity') return goString(canonical(v));
      return goString(v);
    case 'number':
      if (node?.kind === 'quantity') return goString(canonical(v));
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean': return v ? 'true' : 'false';
    case 'object': break;
    default: return 'null';
  }
  if (Array.isArray(v)) {
    const elem = node?.kind === 'list' ? node.elem : undefined;
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + writeValue(v[i], elem);
    return out + ']';
  }
  const obj = v as Record<string, unknown>;
  if (node?.kind === 'struct') return writeStruct(obj, node, false);
  if (node?.kind === 'map') return writeMap(obj, node.elem);
  // an embedded object (a watch event's, a table row's) was encoded by Go as what it is
  if (typeof obj['kind'] === 'string' && typeof obj['apiVersion'] === 'string') return goJson(obj);
  // other opaque JSON (FieldsV1, raw patches) is written as it was given
  return goEscape(JSON.stringify(obj));
}

function writeMap(obj: Record<string, unknown>, elem: SchemaNode | undefined): string {
  const keys = Object.keys(obj).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + goString(keys[i]!) + ':' + writeValue(obj[keys[i]!], elem);
  return out + '}';
}

const noRequired = new Set<string>();

/**
 * A struct: `untyped` leaves out kind and apiVersion (items of a typed list), `rendered` holds
 * fields already written.
 */
function writeStruct(obj: Record<string, unknown>, node: SchemaNode, untyped: boolean, rendered?: Record<string, string>): string {
  const fields = node.fields!;
  const shape = node.definition ? shapeOf(node.definition) : { order: [...fields.keys()], known: new Set(fields.keys()), required: noRequired };
  let out = '{';
  let first = true;
  const put = (k: string, text: string) => { out += (first ? '' : ',') + goString(k) + ':' + text; first = false; };
  for (const k of shape.order) {
    if (untyped && (k === 'kind' || k === 'apiVersion')) continue;
    const text = rendered?.[k];
    if (text !== undefined) { put(k, text); continue; }
    const v = obj[k];
    if (v === undefined) {
      if (shape.required.has(k)) put(k, zeroOf(fields.get(k)?.node));
      continue;
    }
    put(k, writeValue(v, fields.get(k)?.node));
  }
  // fields the schema does not know (kept by a preserve-unknown-fields type) follow, as given
  for (const k in obj) {
    if (obj[k] === undefined || shape.known.has(k) || fields.has(k)) continue;
    put(k, writeValue(obj[k], undefined));
  }
  return out + '}';
}

/** the schema of an object of apiVersion/kind, if this server knows it */
export function nodeOf(apiVersion: unknown, kind: unknown): SchemaNode | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (kind === 'Status' || kind === 'WatchEvent') return schemaNode(`${meta}${kind}`);
  if (group === 'meta.k8s.io' || group === 'meta.orch.io') return views[kind] ?? schemaNode(`${meta}${kind}`);
  const name = definitionForKind(group, version, kind);
  return name ? schemaNode(name) : undefined;
}

/**
 * A Kubernetes object (or list, Status, Table …) as Go's encoder writes it, without the trailing
 * newline. The type is found from apiVersion and kind; objects of unknown types keep the order
 * they were given in.
 */
export function goJson(obj: unknown, defName?: string): string {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return writeValue(obj, undefined);
  const o = obj as Record<string, unknown>;
  const node = defName ? schemaNode(defName) : nodeOf(o['apiVersion'], o['kind']);
  if (!node || node.kind !== 'struct') return goEscape(JSON.stringify(o));
  // items of a typed list carry no type: Go's list structs hold them without TypeMeta
  // (PartialObjectMetadataList's items keep theirs, as Kubernetes sends them)
  const elem = node.fields!.get('items')?.node.elem;
  const items = o['items'];
  if (Array.isArray(items) && elem?.kind === 'struct' && node.definition?.endsWith('List')) {
    let body = '[';
    for (let i = 0; i < items.length; i++) {
      const it: unknown = items[i];
      body += (i ? ',' : '') + (it && typeof it === 'object' && !Array.isArray(it) ? writeStruct(it as Record<string, unknown>, elem, true) : writeValue(it, elem));
    }
    return writeStruct(o, node, false, { items: body + ']' });
  }
  return writeStruct(o, node, false);
}

/** an object as an item of its typed list: without kind and apiVersion */
export function goJsonListItem(obj: Record<string, unknown>): string {
  const node = nodeOf(obj['apiVersion'], obj['kind']);
  if (!node || node.kind !== 'struct') return goEscape(JSON.stringify(obj));
  return writeStruct(obj, node, true);
}

/** compact JSON as a Kubernetes response body: Go's Encoder ends it with a newline */
export function goJsonBody(obj: unknown): string {
  return goJson(obj) + '\n';
}

/** indented JSON as Go's json.MarshalIndent(v, "", "  ") writes it: no trailing newline */
export function goJsonIndented(obj: unknown): string {
  return goEscape(JSON.stringify(JSON.parse(goJson(obj)), null, 2));
}
