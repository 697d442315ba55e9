// Kubernetes protobuf to the JSON object form, driven by the generated message table. Types
// whose JSON form is not their message (times, durations, quantities, int-or-string, raw
// extensions, managed fields, string lists) are mapped as Kubernetes' JSON encoding maps them.

import { Reader, WIRE_BYTES } from './wire.ts';
import { fieldMessage, K, S, type FieldInfo, type MessageInfo, messageInfo, apiVersionToMessage } from './messages.ts';
import { formatDuration, formatTime } from './well-known.ts';
import { hasMagic, readUnknown } from './unknown.ts';

export interface DecodeOptions {
  /**
   * Keep every scalar exactly as the wire has it. Go's marshaller writes every non-pointer
   * field, so a client's unset `namespace` arrives as "" and its unset `hostPort` as 0. By
   * default empty strings are dropped, and zeros of fields the table marks as plain
   * omitempty values, as Go's JSON would; other zeros and false are kept, since a pointer
   * field such as `replicas: 0` cannot be told apart from them.
   */
  keepZeroValues?: boolean;
}

let keepEmpty = false;

function str(buf: Uint8Array, start: number, end: number): string {
  if (end - start < 24) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) return (buf as Buffer).toString('utf8', start, end);
      s += String.fromCharCode(c);
    }
    return s;
  }
  return (buf as Buffer).toString('utf8', start, end);
}

function json(buf: Uint8Array, start: number, end: number): unknown {
  if (start === end) return null;
  const slice = buf.subarray(start, end);
  if (hasMagic(slice)) return decodeEnvelope(slice, undefined).object;
  return JSON.parse((buf as Buffer).toString('utf8', start, end));
}

function scalar(r: Reader, kind: number): unknown {
  switch (kind) {
    case K.string: { const s = r.delimited(); return str(r.buf, s, r.pos); }
    case K.bytes: { const s = r.delimited(); return (r.buf as Buffer).toString('base64', s, r.pos); }
    case K.bool: return r.varint() !== 0;
    case K.int: return r.int64();
    case K.uint: return r.varint();
    case K.double: return r.double();
    case K.float: return r.float();
    default: throw new Error(`unexpected scalar kind ${kind}`);
  }
}

/** a length-delimited message at the reader, as its JSON value */
function message(r: Reader, info: MessageInfo): unknown {
  const start = r.delimited();
  const end = r.pos, outer = r.end;
  r.pos = start; r.end = end;
  const value = info.special === S.none ? fill(r, info, {}) : special(r, info);
  r.pos = end; r.end = outer;
  return value;
}

/** the special messages; the reader spans exactly the message */
function special(r: Reader, info: MessageInfo): unknown {
  let a = 0, b = 0, s = -1, e = -1;
  let text: string | undefined;
  const items: unknown[] = [];
  while (!r.done()) {
    const tag = r.varint();
    const field = tag >>> 3, wire = tag & 7;
    if (wire === WIRE_BYTES) {
      const start = r.delimited();
      if (info.special === S.items) items.push(str(r.buf, start, r.pos));
      else if (info.special === S.intOrString && field === 3) text = str(r.buf, start, r.pos);
      else if (field === 1) { s = start; e = r.pos; }
    } else if (wire === 0) {
      const v = r.int64();
      if (field === 1) a = v; else if (field === 2) b = v;
    } else r.skip(wire);
  }
  switch (info.special) {
    case S.time: return formatTime(a, b, false);
    case S.microTime: return formatTime(a, b, true);
    case S.duration: return formatDuration(a);
    case S.quantity: return s < 0 ? '0' : str(r.buf, s, e);
    case S.intOrString: return a === 1 ? (text ?? '') : b;
    case S.rawExtension: return s < 0 ? null : json(r.buf, s, e);
    case S.fieldsV1: return s < 0 ? null : json(r.buf, s, e);
    case S.items: return items;
    default: throw new Error(`unexpected special message ${info.name}`);
  }
}

function mapEntry(r: Reader, f: FieldInfo, out: Record<string, unknown>): void {
  const start = r.delimited();
  const end = r.pos, outer = r.end;
  r.pos = start; r.end = end;
  let key = '';
  let value: unknown;
  while (!r.done()) {
    const tag = r.varint();
    if (tag === 10) { const s = r.delimited(); key = str(r.buf, s, r.pos); }
    else if (tag >>> 3 === 2) value = f.valueKind === K.message ? message(r, fieldMessage(f)) : scalar(r, f.valueKind);
    else r.skip(tag & 7);
  }
  r.pos = end; r.end = outer;
  if (value === undefined) value = defaultOf(f);
  out[key] = value;
}

function defaultOf(f: FieldInfo): unknown {
  switch (f.valueKind) {
    case K.string: case K.bytes: return '';
    case K.bool: return false;
    case K.message: {
      const sp = fieldMessage(f).special;
      return sp === S.quantity ? '0' : sp === S.items ? [] : sp === S.none ? {} : null;
    }
    default: return 0;
  }
}

/** reads fields until the reader's end into `out` */
function fill(r: Reader, info: MessageInfo, out: Record<string, unknown>): Record<string, unknown> {
  const byNumber = info.byNumber;
  while (r.pos < r.end) {
    const tag = r.varint();
    const wire = tag & 7;
    const f = byNumber[tag >>> 3];
    if (f === undefined) { r.skip(wire); continue; }
    const kind = f.kind;
    if (kind === K.map) {
      mapEntry(r, f, (out[f.name] ??= {}) as Record<string, unknown>);
    } else if (kind === K.message) {
      const sub = fieldMessage(f);
      if (f.inline) {
        const start = r.delimited();
        const end = r.pos, outer = r.end;
        r.pos = start; r.end = end;
        fill(r, sub, out);
        r.pos = end; r.end = outer;
      } else if (f.repeated) {
        ((out[f.name] ??= []) as unknown[]).push(message(r, sub));
      } else {
        const v = message(r, sub);
        if (v !== null) out[f.name] = v;
      }
    } else if (f.repeated) {
      const list = (out[f.name] ??= []) as unknown[];
      if (wire === WIRE_BYTES && kind !== K.string && kind !== K.bytes) {
        // a packed run of numbers
        const start = r.delimited();
        const end = r.pos, outer = r.end;
        r.pos = start; r.end = end;
        while (r.pos < end) list.push(scalar(r, kind));
        r.pos = end; r.end = outer;
      } else list.push(scalar(r, kind));
    } else {
      const v = scalar(r, kind);
      // (no delete: it would push the object into slow dictionary mode)
      if (keepEmpty || !(v === '' || ((v === 0 || v === false) && f.omitZero))) out[f.name] = v;
    }
  }
  return out;
}

/** one message's bytes (no envelope) as its JSON value */
export function decodeMessage(bytes: Uint8Array, messageName: string, options?: DecodeOptions): unknown {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info = messageInfo(messageName);
  const r = new Reader(buf);
  const saved = keepEmpty;
  keepEmpty = options?.keepZeroValues ?? false;
  try {
    return info.special === S.none ? fill(r, info, {}) : special(r, info);
  } finally {
    keepEmpty = saved;
  }
}

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  /** the object in its JSON form, apiVersion and kind first */
  object: Record<string, unknown>;
}

/** magic + Unknown envelope → the object; `message` overrides the message looked up from the type */
export function decodeEnvelope(bytes: Uint8Array, options: DecodeOptions | undefined, message?: string): DecodedObject {
  const env = readUnknown(bytes);
  if (env.contentEncoding) throw new Error(`unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  const name = message ?? apiVersionToMessage(env.apiVersion, env.kind);
  if (!name) throw new Error(`no protobuf message for ${env.apiVersion}, Kind=${env.kind}`);
  const body = decodeMessage(env.raw, name, options) as Record<string, unknown>;
  return { apiVersion: env.apiVersion, kind: env.kind, object: { apiVersion: env.apiVersion, kind: env.kind, ...body } };
}
