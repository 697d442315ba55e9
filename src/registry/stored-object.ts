// How objects are kept in storage: JSON without resourceVersion (the storage revision is the
// resourceVersion, so it is filled in on the way out and never stored twice).

import type { KubeObject } from '../api/object.ts';
import type { KeyValue } from '../storage/interface.ts';
import { copyValue, valueBytes, valueLength } from '../storage/packed-value.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

// Stored JSON always starts `{"apiVersion":…,"kind":…,"metadata":{`, so a plain JSON read can
// splice the served apiVersion and the resourceVersion into the bytes instead of parsing them.
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  const { apiVersion, kind, metadata: _m, ...rest } = obj;
  return enc.encode(JSON.stringify({ apiVersion, kind, metadata: meta, ...rest }));
}

// The head is shorter than `longProbe` bytes (apiVersion and kind are short); most fit in
// `shortProbe`, which is tried first. The byte after the head is read too.
const shortProbe = 96;
const longProbe = 256;
// where a packed value's head is copied to be looked at (lists look at thousands in a row)
const headScratch = new Uint8Array(longProbe + 1);

/** the value's first bytes and the length of its stored head (0: the slow path) */
function headOf(kv: KeyValue): { start: Uint8Array; length: number } {
  let start = valueBytes(kv, 0, shortProbe + 1, headScratch);
  let length = storedHeadLength(start);
  if (length === 0 && start.length > shortProbe) {
    start = valueBytes(kv, 0, longProbe + 1, headScratch);
    length = storedHeadLength(start);
  }
  return { start, length };
}

/**
 * The byte length of the stored head `{"apiVersion":"…","kind":"…","metadata":{` at the start of
 * `b`, or 0 when the value must take the slow path (no such head, or escapes or non-ASCII text
 * in it, which a splice would have to re-encode).
 */
function storedHeadLength(b: Uint8Array): number {
  let at = expect(b, 0, apiVersionOpen);
  at = at && skipPlainString(b, at);
  at = at && expect(b, at, kindOpen);
  at = at && skipPlainString(b, at);
  return at && expect(b, at, metadataOpen);
}

const apiVersionOpen = Buffer.from('{"apiVersion":"');
const kindOpen = Buffer.from(',"kind":"');
const metadataOpen = Buffer.from(',"metadata":{');

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
 * up front. Each item is written as a new head carrying the served apiVersion and its
 * resourceVersion, then its stored bytes after their head, copied once — no parse, no re-encode,
 * no piece allocated per item (a 10k-item list is tens of megabytes, and its pieces once cost
 * more than the copy). Values the watch cache keeps packed are copied out of their template
 * and delta directly.
 */
export function jsonListFromStorage(open: string, kvs: KeyValue[], apiVersion: string, kind: string, close: string): Buffer {
  const head = servedHead(apiVersion, kind);
  // per item, worked out while sizing and used while writing: where its stored head ends (0: it
  // takes the slow path, whose bytes are kept in `slow`) and whether more fields follow the head
  const heads = new Int32Array(kvs.length);
  const slow = new Map<number, Uint8Array>();
  let size = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(0, kvs.length - 1);
  kvs.forEach((kv, i) => {
    const { start, length: hl } = headOf(kv);
    if (hl === 0) {
      const whole = enc.encode(JSON.stringify(decodeFromStorage(kv, apiVersion)));
      slow.set(i, whole);
      size += whole.length;
      return;
    }
    const more = start[hl] !== 0x7d; /* } */
    heads[i] = more ? hl : -hl;
    size += head.length + String(kv.modRevision).length + 1 + (more ? 1 : 0) + valueLength(kv) - hl;
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
    if (hl > 0) out[at++] = 0x2c;
    at += copyValue(kv, out, at, Math.abs(hl));
  });
  at += out.write(close, at);
  return at === size ? out : out.subarray(0, at);
}

/** the stored object as JSON bytes for a client of apiVersion (see jsonListFromStorage) */
export function jsonFromStorage(kv: KeyValue, apiVersion: string, kind: string): Buffer {
  return jsonListFromStorage('', [kv], apiVersion, kind, '');
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
