// runtime.Unknown, the envelope after the `k8s\0` magic: the type (apiVersion, kind), the
// object's own message bytes, and how those bytes are encoded.

import { Reader, Writer, WIRE_BYTES } from './wire.ts';

export const protobufMagic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

export interface UnknownEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

const text = new TextDecoder();

/** the envelope of a `k8s\0`-prefixed body; throws ProtobufError when it is not one */
export function readUnknown(bytes: Uint8Array): UnknownEnvelope {
  if (!hasMagic(bytes)) {
    throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  const out: UnknownEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const r = new Reader(bytes, 4);
  try {
    while (!r.done()) {
      const tag = r.varint();
      const field = Math.floor(tag / 8);
      if (field === 1 && (tag & 7) === WIRE_BYTES) {
        const tm = new Reader(r.bytes());
        while (!tm.done()) {
          const t = tm.varint();
          if (t === 10) out.apiVersion = text.decode(tm.bytes());
          else if (t === 18) out.kind = text.decode(tm.bytes());
          else tm.skip(t & 7);
        }
      } else if (field === 2 && (tag & 7) === WIRE_BYTES) out.raw = r.bytes();
      else if (field === 3 && (tag & 7) === WIRE_BYTES) out.contentEncoding = text.decode(r.bytes());
      else if (field === 4 && (tag & 7) === WIRE_BYTES) out.contentType = text.decode(r.bytes());
      else r.skip(tag & 7);
    }
  } catch (err) {
    throw new ProtobufError(`malformed protobuf envelope: ${(err as Error).message}`);
  }
  return out;
}

/** writes magic + Unknown{typeMeta, raw}; `body` writes the object's message into the writer */
export function writeUnknown(w: Writer, apiVersion: string, kind: string, body: (w: Writer) => void): void {
  w.raw(protobufMagic);
  w.tag(1, WIRE_BYTES);
  const tm = w.begin();
  w.tag(1, WIRE_BYTES); w.string(apiVersion);
  w.tag(2, WIRE_BYTES); w.string(kind);
  w.end(tm);
  w.tag(2, WIRE_BYTES);
  const raw = w.begin();
  body(w);
  w.end(raw);
  // Kubernetes writes the two empty strings too; decoders treat them as unset
  w.tag(3, WIRE_BYTES); w.byte(0);
  w.tag(4, WIRE_BYTES); w.byte(0);
}
