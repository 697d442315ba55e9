// How objects are kept in storage: Go-ordered JSON without resourceVersion (the storage revision is the
// resourceVersion, so it is filled in on the way out and never stored twice).

import { isObject, type KubeObject } from '../api/object.ts';
import { corruptObject } from './corrupt-object.ts';
import { StorageError, type KeyValue } from '../storage/interface.ts';
import { unreadableReason } from '../storage/unreadable-value.ts';
import { copyValue, copyValueRange, PackedKeyValue, valueBytes, valueLength } from '../storage/packed-value.ts';
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

// The head is shorter than `longProbe` bytes (kind, apiVersion, name, namespace and uid are
// short); most fit in `shortProbe`, which is tried first. The byte after the head is read too.
const shortProbe = 160;
const longProbe = 640;
// where a packed value's head is copied to be looked at (lists look at thousands in a row)
const headScratch = new Uint8Array(longProbe + 1);

// Where the parts of the head just read are (headOf's answer): module state rather than an
// object per item, because a list reads the heads of thousands of values in a row and its
// garbage is what the young generation then collects while other requests wait.
/** the value's first bytes, as headOf read them */
let headStart: Uint8Array = headScratch;
/** where the stored apiVersion's text is */
let headApiFrom = 0;
let headApiTo = 0;
/** where the resourceVersion goes: after the uid's value */
let headSplice = 0;

/**
 * Reads the value's stored head; answers where its metadata's fields begin (0: the slow path),
 * and leaves headStart, headApiFrom/To and headSplice set for it
 */
function headOf(kv: KeyValue): number {
  // a plain value is read where it is; a packed one's head is copied out first
  if (!(kv instanceof PackedKeyValue)) return storedHead(headStart = kv.value);
  headStart = valueBytes(kv, 0, shortProbe + 1, headScratch);
  let meta = storedHead(headStart);
  if (meta === 0 && headStart.length > shortProbe) {
    headStart = valueBytes(kv, 0, longProbe + 1, headScratch);
    meta = storedHead(headStart);
  }
  return meta;
}

// the metadata fields Go writes before the uid, all plain strings
const beforeUid = ['"name":"', '"generateName":"', '"namespace":"', '"selfLink":"'].map(k => Buffer.from(k));
const uidOpen = Buffer.from('"uid":"');

/**
 * Where the parts of the stored head `{"kind":"…","apiVersion":"…","metadata":{…"uid":"…"` are
 * in `b`: answers where the metadata begins, 0 when the value must take the slow path (no such
 * head — objects stored before values were kept in Go's form begin with apiVersion —, or
 * escapes or non-ASCII text in it, which a splice would have to re-encode); sets headApiFrom,
 * headApiTo and headSplice.
 */
function storedHead(b: Uint8Array): number {
  let at = expect(b, 0, kindOpen);
  at = at && skipPlainString(b, at);
  at = at && expect(b, at, apiVersionOpen);
  headApiFrom = at;
  at = at && skipPlainString(b, at);
  headApiTo = at - 1;
  at = at && expect(b, at, metadataOpen);
  if (!at) return 0;
  const meta = at;
  for (let i = 0; i < beforeUid.length && at; i++) {
    const next = expect(b, at, beforeUid[i]!);
    if (next) {
      at = skipPlainString(b, next);
      at = at && b[at] === 0x2c /* , */ ? at + 1 : 0;
    }
  }
  at = at && expect(b, at, uidOpen);
  at = at && skipPlainString(b, at);
  // the byte after the uid: more metadata, or its end
  if (!at || (b[at] !== 0x2c && b[at] !== 0x7d)) return 0;
  headSplice = at;
  return meta;
}

const kindOpen = Buffer.from('{"kind":"');
const apiVersionOpen = Buffer.from(',"apiVersion":"');
const metadataOpen = Buffer.from(',"metadata":{');

function sameBytes(b: Uint8Array, from: number, to: number, want: Uint8Array): boolean {
  if (to - from !== want.length) return false;
  for (let i = 0; i < want.length; i++) if (b[from + i] !== want[i]) return false;
  return true;
}

/** the position after `want` when `b` holds it at `at`, else 0 */
function expect(b: Uint8Array, at: number, want: Uint8Array): number {
  for (let i = 0; i < want.length; i++) if (b[at + i] !== want[i]) return 0;
  return at + want.length;
}

/** the position after a string's closing quote, when its text is plain ASCII; else 0 */
function skipPlainString(b: Uint8Array, at: number): number {
  for (let i = at; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22 /* " */) return i + 1;
    if (c === 0x5c /* \ */ || c >= 0x80) return 0;
  }
  return 0;
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

/**
 * Stored objects as the items of a JSON list, between `open` and `close`, in one buffer sized
 * up front. Each item is written as a new head, its stored metadata up to the uid, its
 * resourceVersion, then the rest of its stored bytes, copied once — no parse, no re-encode,
 * no piece allocated per item (a 10k-item list is tens of megabytes, and its pieces once cost
 * more than the copy). Values the watch cache keeps packed are copied out of their template
 * and delta directly. `typed` writes kind and apiVersion (a single object; items of a typed list
 * have none, as Go's list structs hold them).
 */
export function jsonListFromStorage(open: string, kvs: KeyValue[], apiVersion: string, kind: string, close: string, typed = false, onRead?: ReadHook, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  const head = typed ? servedHead(apiVersion, kind) : itemHead;
  // kinds whose versions differ are spliced only when stored in the version asked for
  const served = convertsBetweenVersions(apiVersion, kind) ? enc.encode(apiVersion) : undefined;
  // per item, worked out while sizing and used while writing: where its metadata begins and its
  // resourceVersion goes (meta 0: the slow path, whose bytes are kept in `slow`)
  const metas = new Int32Array(kvs.length);
  const splices = new Int32Array(kvs.length);
  const slow = new Map<number, Uint8Array>();
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, kvs.length - 1);
  kvs.forEach((kv, i) => {
    const meta = headOf(kv);
    // a read hook changes what is served: every item is decoded
    if (meta === 0 || onRead || (served && !sameBytes(headStart, headApiFrom, headApiTo, served))) {
      const obj = decodeFromStorage(kv, apiVersion, kv.modRevision, onRead);
      const whole = enc.encode(typed ? goJson(obj) : goJsonListItem(obj));
      slow.set(i, whole);
      size += whole.length;
      return;
    }
    const splice = headSplice;
    metas[i] = meta;
    splices[i] = splice;
    size += head.length + (splice - meta) + rvOpen.length + decimalLength(kv.modRevision) + 1 + valueLength(kv) - splice;
  });
  const out = alloc(size);
  let at = out.write(open, 0);
  kvs.forEach((kv, i) => {
    if (i) out[at++] = 0x2c; /* , */
    const meta = metas[i]!;
    if (meta === 0) {
      const whole = slow.get(i)!;
      out.set(whole, at);
      at += whole.length;
      return;
    }
    const splice = splices[i]!;
    out.set(head, at);
    at += head.length;
    copyValueRange(kv, out, at, meta, splice);
    at += splice - meta;
    out.set(rvOpen, at);
    at += rvOpen.length;
    at = writeDecimal(out, at, kv.modRevision);
    out[at++] = 0x22; /* " */
    at += copyValue(kv, out, at, splice);
  });
  at += out.write(close, at);
  return at === size ? out : out.subarray(0, at);
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

/** the stored object as the client sees it through apiVersion */
export function decodeFromStorage(kv: Pick<KeyValue, 'value' | 'modRevision'> & { key?: string }, apiVersion: string, rv: number = kv.modRevision, onRead?: ReadHook): KubeObject {
  // a value the storage layer could not decrypt: corrupt, with the reason it gave
  const unreadable = unreadableReason(kv.value);
  if (unreadable !== undefined) throw new StorageError('corrupt', unreadable, { key: kv.key ?? '' });
  let stored: KubeObject;
  try {
    stored = JSON.parse(dec.decode(kv.value)) as KubeObject;
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
