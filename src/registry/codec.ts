// How objects are kept in storage: JSON without resourceVersion (the storage revision is the
// resourceVersion, so it is filled in on the way out and never stored twice).

import type { KubeObject } from '../api/object.ts';
import type { KeyValue } from '../storage/interface.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

// Stored JSON always starts `{"apiVersion":…,"kind":…,"metadata":{`, so a plain JSON read can
// splice the served apiVersion and the resourceVersion into the bytes instead of parsing them.
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  const { apiVersion, kind, metadata: _m, ...rest } = obj;
  return enc.encode(JSON.stringify({ apiVersion, kind, metadata: meta, ...rest }));
}

const storedHead = /^\{"apiVersion":"[^"\\]*","kind":"[^"\\]*","metadata":\{/;
// the head is at most this long: apiVersion and kind are short
const headProbe = 256;

/**
 * The stored object as JSON bytes for a client of apiVersion, in pieces: a new head carrying the
 * served apiVersion and the resourceVersion, then a view of the stored bytes after their head —
 * no parse, no re-encode, no copy of the bulk.
 */
export function jsonPartsFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>, apiVersion: string, kind: string, rv: number = kv.modRevision): Uint8Array[] {
  const headLength = storedHeadLength(kv.value);
  if (headLength === 0) return [enc.encode(JSON.stringify(decodeFromStorage(kv, apiVersion, rv)))];
  const rest = kv.value.subarray(headLength);
  const sep = rest[0] === 0x7d /* } */ ? '' : ',';
  return [servedHead(apiVersion, kind), enc.encode(`${rv}"${sep}`), rest];
}

// Stored values never change, and a list reads the same ones again and again: where each one's
// head ends is worked out once.
const headLengths = new WeakMap<Uint8Array, number>();

/** the byte length of the stored head, or 0 when the value must take the slow path */
function storedHeadLength(value: Uint8Array): number {
  let n = headLengths.get(value);
  if (n !== undefined) return n;
  const head = storedHead.exec(dec.decode(value.subarray(0, headProbe)));
  // a head with non-ASCII text would have a byte length other than its length: take the slow path
  n = head && Buffer.byteLength(head[0]) === head[0].length ? head[0].length : 0;
  headLengths.set(value, n);
  return n;
}

// the head every item of a list shares, up to the resourceVersion's digits
const servedHeads = new Map<string, Uint8Array>();

function servedHead(apiVersion: string, kind: string): Uint8Array {
  const key = `${apiVersion}\u0000${kind}`;
  let h = servedHeads.get(key);
  if (!h) servedHeads.set(key, h = enc.encode(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},"metadata":{"resourceVersion":"`));
  return h;
}

/**
 * Stored objects as the items of a JSON list, between `open` and `close`, in one buffer sized
 * up front: each item's head written and its stored bulk copied once, no piece allocated per
 * item (a 10k-item list is tens of megabytes, and its pieces once cost more than the copy).
 */
export function jsonListFromStorage(open: string, kvs: Array<Pick<KeyValue, 'value' | 'modRevision'>>, apiVersion: string, kind: string, close: string): Buffer {
  const head = servedHead(apiVersion, kind);
  // per item, worked out while sizing and used while writing: where its stored head ends (0: it
  // takes the slow path, whose bytes are kept in `slow`)
  const heads = new Int32Array(kvs.length);
  const slow = new Map<number, Uint8Array>();
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, kvs.length - 1);
  kvs.forEach((kv, i) => {
    const hl = heads[i] = storedHeadLength(kv.value);
    if (hl === 0) {
      const whole = enc.encode(JSON.stringify(decodeFromStorage(kv, apiVersion)));
      slow.set(i, whole);
      size += whole.length;
      return;
    }
    const sepLength = kv.value[hl] === 0x7d /* } */ ? 0 : 1;
    size += head.length + String(kv.modRevision).length + 1 + sepLength + kv.value.length - hl;
  });
  const out = Buffer.allocUnsafe(size);
  let at = out.write(open, 0);
  kvs.forEach((kv, i) => {
    if (i) out[at++] = 0x2c; /* , */
    const hl = heads[i]!;
    if (hl === 0) {
      const whole = slow.get(i)!;
      out.set(whole, at);
      at += whole.length;
      return;
    }
    out.set(head, at);
    at += head.length;
    at += out.write(String(kv.modRevision), at, 'latin1');
    out[at++] = 0x22; /* " */
    if (kv.value[hl] !== 0x7d) out[at++] = 0x2c;
    out.set(kv.value.subarray(hl), at);
    at += kv.value.length - hl;
  });
  at += out.write(close, at);
  return at === size ? out : out.subarray(0, at);
}

/** the stored object as JSON bytes for a client of apiVersion (see jsonPartsFromStorage) */
export function jsonFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>, apiVersion: string, kind: string, rv: number = kv.modRevision): Buffer {
  return Buffer.concat(jsonPartsFromStorage(kv, apiVersion, kind, rv));
}

/** the stored object as the client sees it through apiVersion */
export function decodeFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>, apiVersion: string, rv: number = kv.modRevision): KubeObject {
  const obj = JSON.parse(dec.decode(kv.value)) as KubeObject;
  obj.apiVersion = apiVersion;
  obj.metadata.resourceVersion = String(rv);
  return obj;
}

// A committed event reaches every watcher as the same KeyValue instance: decode it once per
// served version and share the (read-only) result, instead of once per watcher. The watch cache
// hands an event to all its watchers in one turn, so the decoded objects are kept for that turn
// only: kept longer, every cached object would be held a second time, decoded.
let shared = new Map<KeyValue, Map<string, KubeObject>>();
let forgetting = false;

export function decodeShared(kv: KeyValue, apiVersion: string, rv: number = kv.modRevision): KubeObject {
  let byVersion = shared.get(kv);
  if (!byVersion) {
    shared.set(kv, byVersion = new Map());
    if (!forgetting) {
      forgetting = true;
      setImmediate(() => { shared = new Map(); forgetting = false; });
    }
  }
  const key = rv === kv.modRevision ? apiVersion : `${apiVersion}@${rv}`;
  let obj = byVersion.get(key);
  if (!obj) byVersion.set(key, obj = decodeFromStorage(kv, apiVersion, rv));
  return obj;
}
