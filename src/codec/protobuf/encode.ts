// The JSON object form to Kubernetes protobuf, driven by the generated message table. Fields
// absent (or null) in JSON are not written; JSON fields the message lacks are dropped; map
// entries go out sorted by key, as Go's generated marshallers write them.

import { Writer, WIRE_BYTES, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT } from './wire.ts';
import { fieldMessage, K, S, type FieldInfo, type MessageInfo, messageInfo } from './messages.ts';
import { parseDuration, parseTime } from './well-known.ts';
import { writeUnknown } from './unknown.ts';

type Json = Record<string, unknown>;

function toNumber(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function writeScalar(w: Writer, number: number, kind: number, v: unknown): void {
  switch (kind) {
    case K.string:
      if (typeof v === 'string') { w.tag(number, WIRE_BYTES); w.string(v); }
      else if (typeof v === 'number' || typeof v === 'boolean') { w.tag(number, WIRE_BYTES); w.string(String(v)); }
      return;
    case K.bytes: {
      if (typeof v !== 'string') return;
      w.tag(number, WIRE_BYTES);
      w.bytes(Buffer.from(v, 'base64'));
      return;
    }
    case K.bool:
      if (typeof v === 'boolean') { w.tag(number, WIRE_VARINT); w.byte(v ? 1 : 0); }
      return;
    case K.int: case K.uint: {
      const n = toNumber(v);
      if (n === undefined) return;
      w.tag(number, WIRE_VARINT);
      w.int64(Math.trunc(n));
      return;
    }
    case K.double: {
      const n = toNumber(v);
      if (n !== undefined) { w.tag(number, WIRE_FIXED64); w.double(n); }
      return;
    }
    case K.float: {
      const n = toNumber(v);
      if (n !== undefined) { w.tag(number, WIRE_FIXED32); w.float(n); }
      return;
    }
  }
}

function writeSpecial(w: Writer, number: number, info: MessageInfo, v: unknown): void {
  switch (info.special) {
    case S.time: case S.microTime: {
      if (typeof v !== 'string') return;
      const t = parseTime(v);
      if (!t) return;
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      if (t.seconds !== 0) { w.tag(1, WIRE_VARINT); w.int64(t.seconds); }
      const nanos = info.special === S.time ? 0 : t.nanos;
      if (nanos !== 0) { w.tag(2, WIRE_VARINT); w.varint(nanos); }
      w.end(at);
      return;
    }
    case S.duration: {
      const ns = typeof v === 'string' ? parseDuration(v) : undefined;
      if (ns === undefined) return;
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      w.tag(1, WIRE_VARINT); w.int64(ns);
      w.end(at);
      return;
    }
    case S.quantity: {
      if (typeof v !== 'string' && typeof v !== 'number') return;
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      w.tag(1, WIRE_BYTES); w.string(String(v));
      w.end(at);
      return;
    }
    case S.intOrString: {
      if (typeof v !== 'string' && typeof v !== 'number') return;
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      const isString = typeof v === 'string';
      w.tag(1, WIRE_VARINT); w.byte(isString ? 1 : 0);
      w.tag(2, WIRE_VARINT); w.int64(isString ? 0 : Math.trunc(v));
      w.tag(3, WIRE_BYTES); w.string(isString ? v : '');
      w.end(at);
      return;
    }
    case S.rawExtension: case S.fieldsV1: {
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      w.tag(1, WIRE_BYTES); w.string(JSON.stringify(v));
      w.end(at);
      return;
    }
    case S.items: {
      if (!Array.isArray(v)) return;
      w.tag(number, WIRE_BYTES);
      const at = w.begin();
      for (const item of v) writeScalar(w, 1, K.string, item);
      w.end(at);
      return;
    }
  }
}

function writeMessage(w: Writer, number: number, info: MessageInfo, v: unknown): void {
  if (info.special !== S.none) { writeSpecial(w, number, info, v); return; }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
  w.tag(number, WIRE_BYTES);
  const at = w.begin();
  writeFields(w, info, v as Json);
  w.end(at);
}

function writeValue(w: Writer, number: number, f: FieldInfo, kind: number, v: unknown): void {
  if (kind === K.message) writeMessage(w, number, fieldMessage(f), v);
  else writeScalar(w, number, kind, v);
}

function writeMap(w: Writer, f: FieldInfo, v: unknown): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
  const map = v as Json;
  const keys = Object.keys(map);
  if (keys.length > 1) keys.sort();
  for (const key of keys) {
    w.tag(f.number, WIRE_BYTES);
    const at = w.begin();
    w.tag(1, WIRE_BYTES); w.string(key);
    const value = map[key];
    if (value !== undefined && value !== null) writeValue(w, 2, f, f.valueKind, value);
    w.end(at);
  }
}

function writeFields(w: Writer, info: MessageInfo, obj: Json): void {
  const fields = info.fields;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.inline) {
      // an embedded struct takes its fields from the same JSON object
      w.tag(f.number, WIRE_BYTES);
      const at = w.begin();
      writeFields(w, fieldMessage(f), obj);
      w.end(at);
      continue;
    }
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    if (f.kind === K.map) writeMap(w, f, v);
    else if (f.repeated) {
      if (!Array.isArray(v)) continue;
      for (let j = 0; j < v.length; j++) if (v[j] !== null && v[j] !== undefined) writeValue(w, f.number, f, f.kind, v[j]);
    } else writeValue(w, f.number, f, f.kind, v);
  }
}

/** writes the fields of `obj` as the message `info` describes (for framing built elsewhere) */
export function encodeFields(w: Writer, info: MessageInfo, obj: Json): void {
  writeFields(w, info, obj);
}

function withWriter(fn: (w: Writer) => void): Uint8Array {
  const w = new Writer();
  fn(w);
  return w.finish();
}

/** one JSON value as the bytes of the named message (no envelope) */
export function encodeMessage(obj: Json, messageName: string): Uint8Array {
  const info = messageInfo(messageName);
  return withWriter(w => writeFields(w, info, obj));
}

/** magic + Unknown{typeMeta, raw} around the object encoded as the named message */
export function encodeEnvelope(obj: Json, apiVersion: string, kind: string, messageName: string): Uint8Array {
  const info = messageInfo(messageName);
  return withWriter(w => writeUnknown(w, apiVersion, kind, inner => writeFields(inner, info, obj)));
}
