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
  const probe = dec.decode(kv.value.subarray(0, headProbe));
  const head = storedHead.exec(probe);
  // a head with non-ASCII text would have a byte length other than its length: take the slow path
  if (!head || Buffer.byteLength(head[0]) !== head[0].length) return [enc.encode(JSON.stringify(decodeFromStorage(kv, apiVersion, rv)))];
  const rest = kv.value.subarray(head[0].length);
  const sep = rest[0] === 0x7d /* } */ ? '' : ',';
  return [enc.encode(`{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},"metadata":{"resourceVersion":"${rv}"${sep}`), rest];
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
// served version and share the (read-only) result, instead of once per watcher.
const shared = new WeakMap<KeyValue, Map<string, KubeObject>>();

export function decodeShared(kv: KeyValue, apiVersion: string, rv: number = kv.modRevision): KubeObject {
  let byVersion = shared.get(kv);
  if (!byVersion) shared.set(kv, byVersion = new Map());
  const key = rv === kv.modRevision ? apiVersion : `${apiVersion}@${rv}`;
  let obj = byVersion.get(key);
  if (!obj) byVersion.set(key, obj = decodeFromStorage(kv, apiVersion, rv));
  return obj;
}
