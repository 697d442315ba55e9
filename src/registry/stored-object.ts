// How objects are kept in storage: Go-ordered JSON without resourceVersion (the storage revision is the
// resourceVersion, so it is filled in on the way out and never stored twice).

import { isObject, type KubeObject } from '../api/object.ts';
import { corruptObject } from './corrupt-object.ts';
import { StorageError, type KeyValue } from '../storage/interface.ts';
import { unreadableReason } from '../storage/unreadable-value.ts';
import { copyValueSpliced, PackedKeyValue, valueLength } from '../storage/packed-value.ts';
import { apiVersionId, headApiVersion, headMeta, headOf, headSplice } from './stored-head.ts';
import { goJson, goJsonListItem, goString } from '../codec/go-json.ts';
import { convertObject, convertsBetweenVersions, toStorageVersion } from './conversion/index.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

// Stored JSON is the object as Go's encoder writes it (`{"kind":…,"apiVersion":…,"metadata":{`,
// struct order, zero values of fields Go always writes), less the resourceVersion. A plain JSON
// read splices the served apiVersion and the resourceVersion (which Go writes right after the
// uid) into the stored bytes instead of parsing them.
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const stored = toStorageVersion(obj);
  const { resourceVersion: _rv, ...meta } = stored.metadata;
  return enc.encode(goJson({ ...stored, metadata: meta }));
}

// the head each object of a kind starts with as served; items of a list carry no type
const servedHeads = new Map<string, Uint8Array>();
const itemHead = enc.encode('{"metadata":{');
const rvOpen = enc.encode(',"resourceVersion":"');

function servedHead(apiVersion: string, kind: string): Uint8Array {
  const key = `${apiVersion}\u0000${kind}`;
  let h = servedHeads.get(key);
  if (!h) servedHeads.set(key, h = enc.encode(`{"kind":${goString(kind)},"apiVersion":${goString(apiVersion)},"metadata":{`));
  return h;
}

/** the items of a JSON list, planned: their size, and how each is written */
export interface JsonItems {
  kvs: KeyValue[];
  apiVersion: string;
  onRead?: ReadHook;
  typed: boolean;
  /** the head each item is written with */
  head: Uint8Array;
  /** apiVersionId of the version served when the kind's versions differ, else 0 */
  served: number;
  /** per item, its stored head (see stored-head.ts); 0: written from `slow` */
  heads: Int32Array;
  /** the items a splice cannot write, decoded and encoded whole */
  slow: Map<number, Uint8Array>;
  /** the bytes of the items planned so far and the commas between them */
  size: number;
  /**
   * The templates of packed items, copied after the answer in the buffer it is written into
   * (a copy within one buffer is cheaper than between two): each one's place in that copy
   */
  templates: Map<Uint8Array, number>;
  templateBytes: number;
  /** per item, its template's place in that copy; -1: none (a plain value, or templates past the bound) */
  templateAt: Int32Array;
}

// templates copied after an answer at most: beyond, items are copied from their templates directly
const maxTemplateBytes = 256 * 1024;

/**
 * Stored objects to be written as the items of a JSON list (planJsonItems, then
 * writeJsonItems). `typed` writes kind and apiVersion (a single object; items of a typed list
 * have none, as Go's list structs hold them).
 */
export function jsonItems(kvs: KeyValue[], apiVersion: string, kind: string, typed = false, onRead?: ReadHook): JsonItems {
  return {
    kvs, apiVersion, onRead, typed,
    head: typed ? servedHead(apiVersion, kind) : itemHead,
    // kinds whose versions differ are spliced only when stored in the version asked for
    served: convertsBetweenVersions(apiVersion, kind) ? apiVersionId(apiVersion) : 0,
    heads: new Int32Array(kvs.length),
    slow: new Map(),
    size: Math.max(0, kvs.length - 1),
    templates: new Map(),
    templateBytes: 0,
    templateAt: new Int32Array(kvs.length).fill(-1),
  };
}

/** sizes items [from, to); answers whether any had to be decoded (a splice could not write it) */
export function planJsonItems(items: JsonItems, from: number, to: number): boolean {
  const { kvs, heads, slow, served, onRead } = items;
  const fixed = items.head.length + rvOpen.length + 1;
  let decoded = false;
  for (let i = from; i < to; i++) {
    const kv = kvs[i]!;
    const h = headOf(kv);
    // a read hook changes what is served: every item is decoded
    if (h === 0 || onRead || (served && headApiVersion(h) !== served)) {
      const obj = decodeFromStorage(kv, items.apiVersion, kv.modRevision, onRead);
      const whole = enc.encode(items.typed ? goJson(obj) : goJsonListItem(obj));
      slow.set(i, whole);
      items.size += whole.length;
      decoded = true;
      continue;
    }
    heads[i] = h;
    items.size += fixed - headMeta(h) + decimalLength(kv.modRevision) + valueLength(kv);
    if (kv instanceof PackedKeyValue) {
      let place = items.templates.get(kv.template);
      if (place === undefined && items.templateBytes + kv.template.length <= maxTemplateBytes) {
        items.templates.set(kv.template, place = items.templateBytes);
        items.templateBytes += kv.template.length;
      }
      if (place !== undefined) items.templateAt[i] = place;
    }
  }
  return decoded;
}

/**
 * Writes items [from, to) of a planned list into `out` at `at`, each after a comma but the
 * first of the list; answers the new end. Each item is written as a new head, its stored
 * metadata up to the uid, its resourceVersion, then the rest of its stored bytes, copied once —
 * no parse, no re-encode, no piece allocated per item (a 10k-item list is tens of megabytes,
 * and its pieces once cost more than the copy). Values the watch cache keeps packed are copied
 * out of their template and delta directly.
 */
export function writeJsonItems(items: JsonItems, out: Buffer, at: number, from: number, to: number, templatesAt: number): number {
  const { kvs, heads, slow, head, templateAt } = items;
  for (let i = from; i < to; i++) {
    if (i) out[at++] = 0x2c; /* , */
    const h = heads[i]!;
    if (h === 0) {
      const whole = slow.get(i)!;
      out.set(whole, at);
      at += whole.length;
      continue;
    }
    const kv = kvs[i]!;
    const meta = headMeta(h);
    for (let k = 0; k < head.length; k++) out[at++] = head[k]!;
    // the stored bytes from the metadata on, with room for the resourceVersion after the uid
    const rev = kv.modRevision;
    const gap = rvOpen.length + decimalLength(rev) + 1;
    const tpl = templateAt[i]!;
    const end = at + copyValueSpliced(kv, out, at, meta, headSplice(h), gap, tpl < 0 ? -1 : templatesAt + tpl);
    at += headSplice(h) - meta;
    for (let k = 0; k < rvOpen.length; k++) out[at++] = rvOpen[k]!;
    at = writeDecimal(out, at, rev);
    out[at] = 0x22; /* " */
    at = end;
  }
  return at;
}

/** stored objects as the items of a JSON list, between `open` and `close`, in one buffer sized up front */
export function jsonListFromStorage(open: string, kvs: KeyValue[], apiVersion: string, kind: string, close: string, typed = false, onRead?: ReadHook, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  const items = jsonItems(kvs, apiVersion, kind, typed, onRead);
  planJsonItems(items, 0, kvs.length);
  const size = Buffer.byteLength(open) + items.size + Buffer.byteLength(close);
  const out = alloc(size + items.templateBytes);
  writeTemplates(items, out, size);
  let at = out.write(open, 0);
  at = writeJsonItems(items, out, at, 0, kvs.length, size);
  at += out.write(close, at);
  return at === out.length ? out : out.subarray(0, at);
}

/** the planned items' templates, into `out` at `at` (writeJsonItems copies from there) */
export function writeTemplates(items: JsonItems, out: Buffer, at: number): void {
  for (const [t, place] of items.templates) out.set(t, at + place);
}

/** the digits of a revision (a non-negative integer) */
function decimalLength(n: number): number {
  let len = 1;
  while (n >= 10) { n = Math.floor(n / 10); len++; }
  return len;
}

/** writes a revision's digits into `out` at `at`; returns the new end */
function writeDecimal(out: Uint8Array, at: number, n: number): number {
  const end = at + decimalLength(n);
  for (let p = end - 1; p >= at; p--) { out[p] = 0x30 + (n % 10); n = Math.floor(n / 10); }
  return end;
}

/** the stored object as a JSON response body for a client of apiVersion (see jsonListFromStorage) */
export function jsonFromStorage(kv: KeyValue, apiVersion: string, kind: string, onRead?: ReadHook): Buffer {
  return jsonListFromStorage('', [kv], apiVersion, kind, '\n', true, onRead);
}

/**
 * What a read does to a stored object, freshly decoded and still in the version it is stored
 * in, before it is converted to the version served (custom resources' defaults, see
 * apiextensions/read-defaults.ts); it changes the object in place.
 */
export type ReadHook = (stored: KubeObject) => void;

// where a packed value is rebuilt to be decoded: its value getter would make a new array each time
let textScratch = new Uint8Array(16 * 1024);

/** the stored bytes as text */
function storedText(kv: Pick<KeyValue, 'value'>): string {
  if (!(kv instanceof PackedKeyValue)) return dec.decode(kv.value);
  const n = kv.size;
  if (n > textScratch.length) textScratch = new Uint8Array(Math.max(n, textScratch.length * 2));
  kv.copyTo(textScratch, 0, 0, n);
  return dec.decode(textScratch.subarray(0, n));
}

/** the stored object as the client sees it through apiVersion */
export function decodeFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'> & { key?: string }, apiVersion: string, rv: number = kv.modRevision, onRead?: ReadHook): KubeObject {
  const text = storedText(kv);
  // a value the storage layer could not decrypt (a marker, which begins with a NUL): corrupt, with the reason it gave
  const unreadable = text.charCodeAt(0) === 0 ? unreadableReason(kv.value) : undefined;
  if (unreadable !== undefined) throw new StorageError('corrupt', unreadable, { key: kv.key ?? '' });
  let stored: KubeObject;
  try {
    stored = JSON.parse(text) as KubeObject;
    if (!isObject(stored) || !isObject(stored.metadata)) throw new Error('the stored value is not an object with metadata');
  } catch (err) {
    // bytes that are not an object: a corrupt object, which only an unsafe delete removes
    throw corruptObject(kv.key ?? '', err);
  }
  onRead?.(stored);
  const obj = convertObject(stored, apiVersion);
  obj.metadata.resourceVersion = String(rv);
  return obj;
}

// A committed event reaches every watcher as the same KeyValue instance: decode it once per
// served version and share the (read-only) result, instead of once per watcher. The watch cache
// hands an event to all its watchers in one turn, so the decoded objects are kept for that turn
// only: kept longer, every cached object would be held a second time, decoded.
let shared = new Map<KeyValue, Map<string, KubeObject>>();
let forgetting = false;

export function decodeShared(kv: KeyValue, apiVersion: string, rv: number = kv.modRevision, onRead?: ReadHook): KubeObject {
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
  if (!obj) byVersion.set(key, obj = decodeFromStorage(kv, apiVersion, rv, onRead));
  return obj;
}
