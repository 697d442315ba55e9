// The protobuf messages of KMS v2: the plugin's `v2.KeyManagementService` requests and replies,
// and `EncryptedObject`, the form a KMS v2 value takes in storage after its prefix. Field numbers
// as Kubernetes' kms/apis/v2 and kmsv2/v2 protos give them.

import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

export type Annotations = Record<string, Uint8Array>;

/** how the DEK is found from the plaintext of encryptedDEKSource */
export const dekSourceType = { aesGcmKey: 0, hkdfSha256XNonceAesGcmSeed: 1 } as const;

export interface EncryptedObject {
  encryptedData: Uint8Array;
  keyID: string;
  encryptedDEKSource: Uint8Array;
  annotations: Annotations;
  encryptedDEKSourceType: number;
}

function writeAnnotations(w: BinaryWriter, field: number, a: Annotations): void {
  for (const k of Object.keys(a).sort()) w.tag(field, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(k).tag(2, WireType.LengthDelimited).bytes(a[k]!).join();
}

function readAnnotation(r: BinaryReader, into: Annotations): void {
  const end = r.pos + r.uint32();
  let key = '';
  let value: Uint8Array = new Uint8Array();
  while (r.pos < end) {
    const [f, wt] = r.tag();
    if (f === 1) key = r.string(); else if (f === 2) value = r.bytes(); else r.skip(wt);
  }
  into[key] = value;
}

/** reads a message whose fields are all bytes, strings, varints or annotation maps */
function read(bytes: Uint8Array, fields: Record<number, [string, 'bytes' | 'string' | 'varint' | 'map']>): Record<string, unknown> {
  const r = new BinaryReader(bytes);
  const out: Record<string, unknown> = {};
  for (const [, [name, kind]] of Object.entries(fields)) out[name] = kind === 'bytes' ? new Uint8Array() : kind === 'string' ? '' : kind === 'varint' ? 0 : {};
  while (r.pos < r.len) {
    const [f, wt] = r.tag();
    const field = fields[f];
    if (!field) { r.skip(wt); continue; }
    const [name, kind] = field;
    if (kind === 'bytes') out[name] = r.bytes();
    else if (kind === 'string') out[name] = r.string();
    else if (kind === 'varint') out[name] = r.int32();
    else readAnnotation(r, out[name] as Annotations);
  }
  return out;
}

export function encodeEncryptedObject(o: EncryptedObject): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).bytes(o.encryptedData);
  if (o.keyID) w.tag(2, WireType.LengthDelimited).string(o.keyID);
  w.tag(3, WireType.LengthDelimited).bytes(o.encryptedDEKSource);
  writeAnnotations(w, 4, o.annotations);
  if (o.encryptedDEKSourceType) w.tag(5, WireType.Varint).int32(o.encryptedDEKSourceType);
  return w.finish();
}

export function decodeEncryptedObject(b: Uint8Array): EncryptedObject {
  return read(b, { 1: ['encryptedData', 'bytes'], 2: ['keyID', 'string'], 3: ['encryptedDEKSource', 'bytes'], 4: ['annotations', 'map'], 5: ['encryptedDEKSourceType', 'varint'] }) as unknown as EncryptedObject;
}

export interface StatusResponse { version: string; healthz: string; keyId: string }
export interface EncryptRequest { plaintext: Uint8Array; uid: string }
export interface EncryptResponse { ciphertext: Uint8Array; keyId: string; annotations: Annotations }
export interface DecryptRequest { ciphertext: Uint8Array; uid: string; keyId: string; annotations: Annotations }
export interface DecryptResponse { plaintext: Uint8Array }

export const encodeStatusRequest = () => new Uint8Array();
export const decodeStatusRequest = () => ({});
export function encodeStatusResponse(s: StatusResponse): Uint8Array {
  return new BinaryWriter().tag(1, WireType.LengthDelimited).string(s.version).tag(2, WireType.LengthDelimited).string(s.healthz).tag(3, WireType.LengthDelimited).string(s.keyId).finish();
}
export const decodeStatusResponse = (b: Uint8Array) => read(b, { 1: ['version', 'string'], 2: ['healthz', 'string'], 3: ['keyId', 'string'] }) as unknown as StatusResponse;
export function encodeEncryptRequest(m: EncryptRequest): Uint8Array {
  return new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(m.plaintext).tag(2, WireType.LengthDelimited).string(m.uid).finish();
}
export const decodeEncryptRequest = (b: Uint8Array) => read(b, { 1: ['plaintext', 'bytes'], 2: ['uid', 'string'] }) as unknown as EncryptRequest;
export function encodeEncryptResponse(m: EncryptResponse): Uint8Array {
  const w = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(m.ciphertext).tag(2, WireType.LengthDelimited).string(m.keyId);
  writeAnnotations(w, 3, m.annotations);
  return w.finish();
}
export const decodeEncryptResponse = (b: Uint8Array) => read(b, { 1: ['ciphertext', 'bytes'], 2: ['keyId', 'string'], 3: ['annotations', 'map'] }) as unknown as EncryptResponse;
export function encodeDecryptRequest(m: DecryptRequest): Uint8Array {
  const w = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(m.ciphertext).tag(2, WireType.LengthDelimited).string(m.uid).tag(3, WireType.LengthDelimited).string(m.keyId);
  writeAnnotations(w, 4, m.annotations);
  return w.finish();
}
export const decodeDecryptRequest = (b: Uint8Array) => read(b, { 1: ['ciphertext', 'bytes'], 2: ['uid', 'string'], 3: ['keyId', 'string'], 4: ['annotations', 'map'] }) as unknown as DecryptRequest;
export const encodeDecryptResponse = (m: DecryptResponse) => new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(m.plaintext).finish();
export const decodeDecryptResponse = (b: Uint8Array) => read(b, { 1: ['plaintext', 'bytes'] }) as unknown as DecryptResponse;
