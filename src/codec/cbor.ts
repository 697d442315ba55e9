// CBOR bodies (`application/cbor`, watch events as `application/cbor-seq`), behind the
// CBORServingAndStorage gate, written as Kubernetes' CBOR serializer writes them: the
// self-described tag 55799 first, definite lengths in their shortest form, text-string keys in
// bytewise order of their encoding (shorter keys first), whole numbers as integers, []byte
// fields (Secret data and the like) as byte strings. Values are those the JSON form holds
// (zero values, canonical quantities), so both forms say the same.

import type * as CborX from 'cbor-x';
import { lazyModule } from '../api/lazy-module.ts';
import { goJson, nodeOf } from './go-json.ts';
import type { SchemaNode } from '../schema/schema-walker.ts';

const selfDescribed = Uint8Array.of(0xd9, 0xd9, 0xf7);
const cborX = lazyModule<typeof CborX>('cbor-x');
let coders: { encoder: CborX.Encoder; decoder: CborX.Decoder } | undefined;
/** cbor-x's encoder and decoder, made on the first CBOR body */
function cbor(): { encoder: CborX.Encoder; decoder: CborX.Decoder } {
  const { Encoder, Decoder } = cborX();
  return coders ??= {
    encoder: new Encoder({ useRecords: false, mapsAsObjects: true, variableMapSize: true, tagUint8Array: false } as ConstructorParameters<typeof Encoder>[0]),
    decoder: new Decoder({ useRecords: false, mapsAsObjects: true } as ConstructorParameters<typeof Decoder>[0]),
  };
}

/** a CBOR body that cannot be read; its message is fit for a 400 */
export class CborError extends Error {}

const textEncoder = new TextEncoder();

/** CBOR text keys ordered as their encodings compare bytewise: by length, then by bytes */
function keyOrder(a: string, b: string): number {
  const x = textEncoder.encode(a), y = textEncoder.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

function toCbor(v: unknown, node: SchemaNode | undefined): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'string' && node?.kind === 'bytes') return Buffer.from(v, 'base64');
    // cbor-x writes whole numbers past 32 bits as floats; Kubernetes writes integers
    if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) > 0xffffffff) return BigInt(v);
    return v;
  }
  if (Array.isArray(v)) return v.map(x => toCbor(x, node?.kind === 'list' ? node.elem : undefined));
  const obj = v as Record<string, unknown>;
  const own = node?.kind === 'any' && typeof obj['kind'] === 'string' ? nodeOf(obj['apiVersion'], obj['kind']) : node;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort(keyOrder)) {
    const child = own?.kind === 'struct' ? own.fields?.get(k)?.node : own?.kind === 'map' ? own.elem : undefined;
    out[k] = toCbor(obj[k], child);
  }
  return out;
}

/** an object (or list, Status, watch event …) as a CBOR body */
export function encodeCbor(obj: Record<string, unknown>): Uint8Array {
  // the values the JSON form holds: zero values, canonical quantities and times
  const value = JSON.parse(goJson(obj)) as Record<string, unknown>;
  const body = cbor().encoder.encode(toCbor(value, nodeOf(obj['apiVersion'], obj['kind']) ?? watchEventNode(obj)));
  const out = new Uint8Array(selfDescribed.length + body.length);
  out.set(selfDescribed);
  out.set(body, selfDescribed.length);
  return out;
}

function watchEventNode(obj: Record<string, unknown>): SchemaNode | undefined {
  return 'type' in obj && 'object' in obj ? nodeOf('v1', 'WatchEvent') : undefined;
}

function fromCbor(v: unknown, path: string): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (typeof v === 'bigint') {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw new CborError(`${path || 'body'}: integer ${v} does not fit`);
    return Number(v);
  }
  if (v instanceof Map) throw new CborError(`${path || 'body'}: map keys must be text strings`);
  if (Array.isArray(v)) return v.map((x, i) => fromCbor(x, `${path}[${i}]`));
  if (v && typeof v === 'object') {
    if (v.constructor !== Object) throw new CborError(`${path || 'body'}: unsupported CBOR item`);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = fromCbor(x, path ? `${path}.${k}` : k);
    return out;
  }
  if (v === undefined) throw new CborError(`${path || 'body'}: undefined is not a value`);
  return v;
}

/** a CBOR body (one item, the self-described tag optional) as the JSON form's value */
export function decodeCbor(bytes: Uint8Array): unknown {
  let item: unknown;
  try {
    item = cbor().decoder.decode(bytes);
  } catch (err) {
    throw new CborError(`unable to decode CBOR: ${(err as Error).message}`);
  }
  return fromCbor(item, '');
}
