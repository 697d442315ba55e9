// JSON as Go's encoding/json writes Kubernetes' types: fields in struct order, fields Go writes
// without `omitempty` present with their zero value, map keys sorted, `<` `>` `&` U+2028 U+2029
// escaped, Time in whole seconds and MicroTime in microseconds, UTC, quantities canonical. Clients compare these
// bytes (golden files, generated models that reject a missing required field), so every JSON
// body the server writes, and every object it stores, goes through here.

import { canonicalQuantity } from '../api/quantity.ts';
import { definition, definitionForKind, goFieldOrder, goZeroFields } from '../schema/definitions.ts';
import { compileSchema, schemaNode, type SchemaNode } from '../schema/schema-walker.ts';


const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string) => ({ $ref: `#/definitions/${meta}${name}` });
const str = { type: 'string' };
const typeMeta = { kind: str, apiVersion: str };
const partialObjectMetadata = { type: 'object', properties: { ...typeMeta, metadata: ref('ObjectMeta') } };
// the views of the meta group that have no OpenAPI definition: their Go structs, fields in order,
// named so that their Go order and the fields Go writes unset come from the generated tables
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
function name(node: SchemaNode | undefined, kind: string): SchemaNode | undefined {
  if (node) node.definition = `${meta}${kind}`;
  return node;
}
name(views['PartialObjectMetadata'], 'PartialObjectMetadata');
name(views['PartialObjectMetadataList'], 'PartialObjectMetadataList');
name(views['PartialObjectMetadataList']!.fields?.get('items')?.node.elem, 'PartialObjectMetadata');
const tableRow = name(views['Table']!.fields?.get('rows')?.node.elem, 'TableRow');
name(tableRow?.fields?.get('conditions')?.node.elem, 'TableRowCondition');
name(views['Table']!.fields?.get('columnDefinitions')?.node.elem, 'TableColumnDefinition');
name(views['Table'], 'Table');

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
  /** the fields Go writes although unset, with the JSON it writes for each */
  zeros: ReadonlyMap<string, string>;
}

const shapes = new Map<string, Shape>();

function shapeOf(defName: string, node: SchemaNode): Shape {
  let s = shapes.get(defName);
  if (!s) {
    const def = definition(defName);
    const props = Object.keys((def?.['properties'] as Record<string, unknown> | undefined) ?? {});
    const order = goFieldOrder(defName) ?? props;
    const fromGo = goZeroFields(defName);
    // without the Go struct's tags, the OpenAPI required list is the best guess
    const zeros = fromGo ? new Map(Object.entries(fromGo)) : new Map<string, string>();
    s = { order, known: new Set(order), zeros };
    shapes.set(defName, s);
    if (!fromGo) for (const k of (def?.['required'] as string[] | undefined) ?? []) zeros.set(k, zeroOf(node.fields?.get(k)?.node));
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

/** Go's zero value of a field the encoder writes although it is unset, from its schema alone */
function zeroOf(node: SchemaNode | undefined): string {
  switch (node?.kind) {
    case 'string': return '""';
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

/**
 * Go sorts map keys by their UTF-8 bytes, which is code point order; JavaScript's default sort
 * compares UTF-16 units, which differs only where a key holds a character past U+FFFF and
 * another one in U+E000–U+FFFF at the same place
 */
function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return (a.codePointAt(i) ?? x) - (b.codePointAt(i) ?? y) < 0 ? -1 : 1;
    return x - y;
  }
  return a.length - b.length;
}

/** the keys of a map in the order Go's encoder writes them */
function sortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort(byteOrder);
}

function writeMap(obj: Record<string, unknown>, elem: SchemaNode | undefined): string {
  const keys = sortedKeys(obj);
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + goString(keys[i]!) + ':' + writeValue(obj[keys[i]!], elem);
  return out + '}';
}

/** JSON without a schema, as Go writes map[string]interface{}: keys sorted at every level */
/** any JSON value as Go's json.Marshal writes an interface{} holding it: every map's keys sorted */
export function goJsonUnstructured(v: unknown): string {
  return writeUnstructured(v);
}

function writeUnstructured(v: unknown): string {
  if (v === null || typeof v !== 'object') return writeValue(v, undefined);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + writeUnstructured(v[i]);
    return out + ']';
  }
  const obj = v as Record<string, unknown>;
  const keys = sortedKeys(obj).filter(k => obj[k] !== undefined);
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + goString(keys[i]!) + ':' + writeUnstructured(obj[keys[i]!]);
  return out + '}';
}

const noZeros = new Map<string, string>();

/**
 * A struct: `untyped` leaves out kind and apiVersion (items of a typed list), `rendered` holds
 * fields already written.
 */
function writeStruct(obj: Record<string, unknown>, node: SchemaNode, untyped: boolean, rendered?: Record<string, string>): string {
  const fields = node.fields!;
  const shape = node.definition ? shapeOf(node.definition, node) : { order: [...fields.keys()], known: new Set(fields.keys()), zeros: noZeros };
  let out = '{';
  let first = true;
  const put = (k: string, text: string) => { out += (first ? '' : ',') + goString(k) + ':' + text; first = false; };
  for (const k of shape.order) {
    if (untyped && (k === 'kind' || k === 'apiVersion')) continue;
    const text = rendered?.[k];
    if (text !== undefined) { put(k, text); continue; }
    const v = obj[k];
    // null decodes into Go's zero value: written as an unset field is
    if (v === undefined || v === null) {
      const zero = shape.zeros.get(k);
      if (zero !== undefined) put(k, zero);
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
 * newline. The type is found from apiVersion and kind; objects of unknown types are written
 * with their keys sorted, as Go writes unstructured objects.
 */
export function goJson(obj: unknown, defName?: string): string {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return writeValue(obj, undefined);
  const o = obj as Record<string, unknown>;
  const node = defName ? schemaNode(defName) : nodeOf(o['apiVersion'], o['kind']);
  if (!node || node.kind !== 'struct') {
    // an object of a type this server has no struct for (a custom resource) is a
    // map[string]interface{} to Go, written with every key sorted; a plain value without a
    // type, or a discovery document (whose types the OpenAPI document leaves out), is one of
    // the server's own structs, built in its order
    const unstructured = typeof o['kind'] === 'string' && typeof o['apiVersion'] === 'string' && !o['apiVersion'].startsWith('apidiscovery.k8s.io/');
    return unstructured ? writeUnstructured(o) : goEscape(JSON.stringify(o));
  }
  // items of a typed list carry no type: Go's list structs hold them without TypeMeta
  // (PartialObjectMetadataList's items keep theirs, as Kubernetes sends them)
  const elem = node.fields!.get('items')?.node.elem;
  const items = o['items'];
  if (Array.isArray(items) && elem?.kind === 'struct' && node.definition?.endsWith('List') && node.definition !== `${meta}PartialObjectMetadataList`) {
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
  return indent(goJson(obj));
}

/**
 * Compact JSON re-indented as Go's json.Indent does it: two spaces a level, `": "` after a key,
 * empty objects and arrays kept as `{}` and `[]`. It works on the text rather than re-parsing
 * it, which would reorder integer-like keys ("10" before "9" in Go's sorted maps) and round
 * integers past 2^53.
 */
export function indent(compact: string): string {
  let out = '';
  let depth = 0;
  let from = 0;
  const newline = (d: number) => '\n' + '  '.repeat(d);
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // skip the string, escapes and all
      for (i++; i < compact.length; i++) {
        const d = compact.charCodeAt(i);
        if (d === 0x5c /* backslash */) i++;
        else if (d === 0x22) break;
      }
      continue;
    }
    let piece: string | undefined;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (compact.charCodeAt(i + 1) === close) { i++; continue; }
      piece = compact[i]! + newline(++depth);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) piece = newline(--depth) + compact[i]!;
    else if (c === 0x2c /* , */) piece = ',' + newline(depth);
    else if (c === 0x3a /* : */) piece = ': ';
    if (piece === undefined) continue;
    out += compact.slice(from, i) + piece;
    from = i + 1;
  }
  return out + compact.slice(from);
}
