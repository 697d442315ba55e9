// The Swagger 2.0 document in the protobuf form client-go asks for first
// (application/com.github.proto-openapi.spec.v2@v1.0+protobuf, the gnostic openapi.v2.Document
// message). kubectl 1.27 reads nothing else for explain, client-side validation and apply, and
// gives up when it is missing. Only the parts of the schema language our documents use are
// encoded; free-form values (vendor extensions, default, enum) travel as YAML text, which JSON is.

import { Writer as WireWriter, WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT } from '../codec/protobuf/wire.ts';

type Json = Record<string, unknown>;

/** fields of the gnostic messages over the codec's wire writer; zero values are left out, as proto3 does */
class Writer {
  private w = new WireWriter();
  string(field: number, value: unknown): void {
    if (typeof value !== 'string' || value === '') return;
    this.w.tag(field, WIRE_BYTES);
    this.w.string(value);
  }
  strings(field: number, values: unknown): void {
    if (!Array.isArray(values)) return;
    for (const v of values) { this.w.tag(field, WIRE_BYTES); this.w.string(String(v)); }
  }
  bool(field: number, value: unknown, always = false): void {
    if (typeof value !== 'boolean' || (!value && !always)) return;
    this.w.tag(field, WIRE_VARINT);
    this.w.varint(value ? 1 : 0);
  }
  int(field: number, value: unknown): void {
    if (typeof value !== 'number' || value === 0) return;
    this.w.tag(field, WIRE_VARINT);
    this.w.int64(value);
  }
  double(field: number, value: unknown): void {
    if (typeof value !== 'number' || value === 0) return;
    this.w.tag(field, WIRE_FIXED64);
    this.w.double(value);
  }
  message(field: number, build: (w: Writer) => void): void {
    this.w.tag(field, WIRE_BYTES);
    const at = this.w.begin();
    build(this);
    this.w.end(at);
  }
  raw(bytes: Uint8Array): void { this.w.raw(bytes); }
  finish(): Buffer { const out = this.w.finish(); return Buffer.from(out.buffer, out.byteOffset, out.byteLength); }
}

// A document is remade whenever one CRD or extension changes, but its path items and definitions
// are mostly the same objects as before: their encoded entries are kept with them and copied.
const encodedEntries = new WeakMap<object, { field: number; name: string; bytes: Uint8Array }>();

/** a named entry (NamedPathItem, NamedSchema) of `value`, encoded once per object */
function namedEntry(w: Writer, field: number, name: string, value: object, build: (w: Writer) => void): void {
  let hit = encodedEntries.get(value);
  if (!hit || hit.name !== name || hit.field !== field) {
    const sub = new Writer();
    sub.message(field, named => { named.string(1, name); named.message(2, build); });
    hit = { field, name, bytes: sub.finish() };
    encodedEntries.set(value, hit);
  }
  w.raw(hit.bytes);
}

/** Any { yaml = 2 } */
function any(w: Writer, field: number, value: unknown): void {
  w.message(field, a => a.string(2, JSON.stringify(value)));
}

/** repeated NamedAny for the x-* keys of an object */
function extensions(w: Writer, field: number, obj: Json): void {
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('x-')) w.message(field, n => { n.string(1, k); any(n, 2, v); });
  }
}

function schema(w: Writer, s: Json): void {
  w.string(1, s.$ref);
  w.string(2, s.format);
  w.string(3, s.title);
  w.string(4, s.description);
  if (s.default !== undefined) any(w, 5, s.default);
  w.double(6, s.multipleOf);
  w.double(7, s.maximum);
  w.bool(8, s.exclusiveMaximum);
  w.double(9, s.minimum);
  w.bool(10, s.exclusiveMinimum);
  w.int(11, s.maxLength);
  w.int(12, s.minLength);
  w.string(13, s.pattern);
  w.int(14, s.maxItems);
  w.int(15, s.minItems);
  w.bool(16, s.uniqueItems);
  w.int(17, s.maxProperties);
  w.int(18, s.minProperties);
  w.strings(19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) any(w, 20, e);
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') w.message(21, a => a.bool(2, ap, true));
  else if (ap && typeof ap === 'object') w.message(21, a => a.message(1, x => schema(x, ap as Json)));
  if (s.type !== undefined) w.message(22, t => t.strings(1, Array.isArray(s.type) ? s.type : [s.type]));
  const items = s.items;
  if (items && typeof items === 'object') {
    w.message(23, it => { for (const i of Array.isArray(items) ? items : [items]) it.message(1, x => schema(x, i as Json)); });
  }
  if (Array.isArray(s.allOf)) for (const a of s.allOf) w.message(24, x => schema(x, a as Json));
  const props = s.properties as Json | undefined;
  if (props) w.message(25, p => { for (const [k, v] of Object.entries(props)) p.message(1, n => { n.string(1, k); n.message(2, x => schema(x, v as Json)); }); });
  w.bool(27, s.readOnly);
  if (s.example !== undefined) any(w, 30, s.example);
  extensions(w, 31, s);
}

/** ParametersItem { parameter = 1 { body_parameter = 1 | non_body_parameter = 2 } | json_reference = 2 } */
function parameter(w: Writer, p: Json): void {
  if (typeof p.$ref === 'string') { w.message(2, r => r.string(1, p.$ref)); return; }
  w.message(1, param => {
    if (p.in === 'body') {
      param.message(1, b => {
        b.string(1, p.description);
        b.string(2, p.name);
        b.string(3, p.in);
        b.bool(4, p.required);
        if (p.schema) b.message(5, x => schema(x, p.schema as Json));
        extensions(b, 6, p);
      });
      return;
    }
    // header = 1, formData = 2, query = 3, path = 4; query and formData have allow_empty_value at 5
    const kind = p.in === 'header' ? 1 : p.in === 'formData' ? 2 : p.in === 'path' ? 4 : 3;
    const shift = kind === 2 || kind === 3 ? 1 : 0;
    param.message(2, nb => nb.message(kind, s => {
      s.bool(1, p.required);
      s.string(2, p.in);
      s.string(3, p.description);
      s.string(4, p.name);
      s.string(5 + shift, p.type);
      s.string(6 + shift, p.format);
      s.bool(19 + shift, p.uniqueItems);
      extensions(s, 22 + shift, p);
    }));
  });
}

function operation(w: Writer, op: Json): void {
  w.strings(1, op.tags);
  w.string(2, op.summary);
  w.string(3, op.description);
  w.string(5, op.operationId);
  w.strings(6, op.produces);
  w.strings(7, op.consumes);
  for (const p of (op.parameters as Json[] | undefined) ?? []) w.message(8, x => parameter(x, p));
  const responses = op.responses as Record<string, Json> | undefined;
  if (responses) {
    w.message(9, rs => {
      for (const [code, r] of Object.entries(responses)) {
        rs.message(1, named => {
          named.string(1, code);
          named.message(2, rv => rv.message(1, resp => {
            resp.string(1, r.description ?? '');
            if (r.schema) resp.message(2, si => si.message(1, x => schema(x, r.schema as Json)));
          }));
        });
      }
    });
  }
  w.strings(10, op.schemes);
  w.bool(11, op.deprecated);
  extensions(w, 13, op);
}

const pathItemFields: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

export function encodeOpenAPIv2(doc: Json): Buffer {
  const w = new Writer();
  w.string(1, doc.swagger);
  const info = doc.info as Json | undefined;
  if (info) w.message(2, i => { i.string(1, info.title); i.string(2, info.version); });
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  w.message(8, ps => {
    for (const [path, item] of Object.entries(paths)) {
      namedEntry(ps, 2, path, item, pi => {
        for (const [method, field] of Object.entries(pathItemFields)) {
          const op = item[method] as Json | undefined;
          if (op) pi.message(field, x => operation(x, op));
        }
        for (const p of (item.parameters as Json[] | undefined) ?? []) pi.message(9, x => parameter(x, p));
      });
    }
  });
  const defs = (doc.definitions ?? {}) as Record<string, Json>;
  w.message(9, d => { for (const [name, s] of Object.entries(defs)) namedEntry(d, 1, name, s, x => schema(x, s)); });
  for (const req of (doc.security as Array<Record<string, string[]>> | undefined) ?? []) {
    w.message(12, sr => { for (const [name, scopes] of Object.entries(req)) sr.message(1, n => { n.string(1, name); n.message(2, a => a.strings(1, scopes)); }); });
  }
  const secDefs = doc.securityDefinitions as Record<string, Json> | undefined;
  if (secDefs) {
    w.message(13, sd => {
      for (const [name, def] of Object.entries(secDefs)) {
        sd.message(1, n => {
          n.string(1, name);
          // only the apiKey scheme (field 2 of the oneof) is published
          n.message(2, item => item.message(2, k => { k.string(1, def.type); k.string(2, def.name); k.string(3, def.in); k.string(4, def.description); }));
        });
      }
    });
  }
  return w.finish();
}
