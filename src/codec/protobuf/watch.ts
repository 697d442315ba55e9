// Protobuf watch streams (`application/vnd.kubernetes.protobuf;stream=watch`): each event is
// a 4-byte big-endian length, then a bare WatchEvent message (no magic, no Unknown) whose
// object is a RawExtension holding the object as a full protobuf body (magic + Unknown).

import { Reader, Writer, WIRE_BYTES } from './wire.ts';
import { apiVersionToMessage, messageInfo } from './messages.ts';
import { decodeMessage } from './decode.ts';
import { ProtobufError, readUnknown, writeUnknown } from './unknown.ts';
import { encodeFields } from './encode.ts';

/** one framed watch event; the object's apiVersion and kind default to its own */
export function encodeProtobufWatchEvent(type: string, object: Record<string, unknown>, apiVersion?: string, kind?: string): Uint8Array {
  const av = apiVersion ?? (typeof object.apiVersion === 'string' ? object.apiVersion : '');
  const k = kind ?? (typeof object.kind === 'string' ? object.kind : '');
  const name = apiVersionToMessage(av, k);
  if (!name) throw new ProtobufError(`no protobuf message for ${av}, Kind=${k}`);
  const info = messageInfo(name);
  const w = new Writer();
  w.tag(1, WIRE_BYTES); w.string(type);
  w.tag(2, WIRE_BYTES);
  const ext = w.begin();
  w.tag(1, WIRE_BYTES);
  const raw = w.begin();
  writeUnknown(w, av, k, inner => encodeFields(inner, info, object));
  w.end(raw);
  w.end(ext);
  const event = w.finish();
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}

/** reads one framed event from the start of `bytes`; returns it and the bytes it used */
export function decodeProtobufWatchEvent(bytes: Uint8Array): { type: string; object: Record<string, unknown>; length: number } {
  if (bytes.length < 4) throw new ProtobufError('truncated watch frame');
  const len = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (bytes.length < 4 + len) throw new ProtobufError('truncated watch frame');
  const r = new Reader(bytes, 4, 4 + len);
  let type = '';
  let raw: Uint8Array | undefined;
  while (!r.done()) {
    const tag = r.varint();
    if (tag === 10) type = new TextDecoder().decode(r.bytes());
    else if (tag === 18) {
      const ext = new Reader(r.bytes());
      while (!ext.done()) { const t = ext.varint(); if (t === 10) raw = ext.bytes(); else ext.skip(t & 7); }
    } else r.skip(tag & 7);
  }
  if (!raw) throw new ProtobufError('watch event without an object');
  const env = readUnknown(raw);
  const name = apiVersionToMessage(env.apiVersion, env.kind);
  if (!name) throw new ProtobufError(`no protobuf message for ${env.apiVersion}, Kind=${env.kind}`);
  const fields = decodeMessage(env.raw, name) as Record<string, unknown>;
  return { type, object: { apiVersion: env.apiVersion, kind: env.kind, ...fields }, length: 4 + len };
}
