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

/** the stored object as JSON text for a client of apiVersion, without a parse and re-encode */
export function jsonFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'>, apiVersion: string, kind: string, rv: number = kv.modRevision): string {
  const text = dec.decode(kv.value);
  const head = storedHead.exec(text);
  if (!head) return JSON.stringify(decodeFromStorage(kv, apiVersion, rv));
  const rest = text.slice(head[0].length);
  const sep = rest.startsWith('}') ? '' : ',';
  return `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)},"metadata":{"resourceVersion":"${rv}"${sep}${rest}`;
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
