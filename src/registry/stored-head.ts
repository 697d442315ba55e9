// Where the parts of a stored object's head are: `{"kind":"…","apiVersion":"…","metadata":{…"uid":"…"`.
// A JSON read splices the served apiVersion and the resourceVersion (which Go writes right after
// the uid) into the stored bytes at those places instead of parsing them, and a label selector
// reads the labels that follow. A list reads the heads of thousands of values; a value the
// watch cache keeps packed remembers its head (its bytes never change), so a list of objects it
// has served before finds every head in one field read.

import type { KeyValue } from '../storage/interface.ts';
import { PackedKeyValue, valueBytes } from '../storage/packed-value.ts';

// The head is shorter than `longProbe` bytes (kind, apiVersion, name, namespace and uid are
// short); most fit in `shortProbe`, which is tried first. The byte after the head is read too.
const shortProbe = 160;
const longProbe = 640;
// where a packed value's head is copied to be looked at
const headScratch = new Uint8Array(longProbe + 1);

/**
 * A head as one small integer (a V8 small integer: no allocation to keep it): where the
 * metadata's fields begin (10 bits), where the resourceVersion goes — after the uid's value —
 * (10 bits), and which apiVersion the value is stored in (10 bits, see apiVersionId). 0: the
 * value has no head a splice can use (objects stored before values were kept in Go's form begin
 * with apiVersion; escapes or non-ASCII text in the head would have to be re-encoded).
 */
export type Head = number;

export const headMeta = (h: Head): number => h & 0x3ff;
export const headSplice = (h: Head): number => (h >>> 10) & 0x3ff;
export const headApiVersion = (h: Head): number => h >>> 20;

// apiVersions as small numbers, for heads: a server stores a few hundred at most
const apiVersionIds = new Map<string, number>();

/** the small number of an apiVersion in heads; 0 when there are too many to number */
export function apiVersionId(apiVersion: string): number {
  let id = apiVersionIds.get(apiVersion);
  if (id === undefined) {
    if (apiVersionIds.size >= 0x3ff) return 0;
    apiVersionIds.set(apiVersion, id = apiVersionIds.size + 1);
  }
  return id;
}

/** the head of a stored value: remembered on a packed value, read in place from a plain one */
export function headOf(kv: KeyValue): Head {
  if (!(kv instanceof PackedKeyValue)) return storedHead(kv.value);
  if (kv.note >= 0) return kv.note;
  let b = valueBytes(kv, 0, shortProbe + 1, headScratch);
  let h = storedHead(b);
  if (h === 0 && b.length > shortProbe) {
    b = valueBytes(kv, 0, longProbe + 1, headScratch);
    h = storedHead(b);
  }
  kv.note = h;
  return h;
}

// the metadata fields Go writes before the uid, all plain strings
const beforeUid = ['"name":"', '"generateName":"', '"namespace":"', '"selfLink":"'].map(k => Buffer.from(k));
const uidOpen = Buffer.from('"uid":"');
const kindOpen = Buffer.from('{"kind":"');
const apiVersionOpen = Buffer.from(',"apiVersion":"');
const metadataOpen = Buffer.from(',"metadata":{');

function storedHead(b: Uint8Array): Head {
  let at = expect(b, 0, kindOpen);
  at = at && skipPlainString(b, at);
  at = at && expect(b, at, apiVersionOpen);
  const apiFrom = at;
  at = at && skipPlainString(b, at);
  const apiTo = at - 1;
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
  if (!at || (b[at] !== 0x2c && b[at] !== 0x7d) || at > 0x3ff) return 0;
  const api = storedApiVersionId(b, apiFrom, apiTo);
  return api === 0 ? 0 : meta | (at << 10) | (api << 20);
}

// the apiVersion last numbered from stored bytes: the values of a list are mostly in one
let lastApi = new Uint8Array(0);
let lastApiId = 0;

function storedApiVersionId(b: Uint8Array, from: number, to: number): number {
  let same = to - from === lastApi.length;
  for (let i = 0; same && i < lastApi.length; i++) same = b[from + i] === lastApi[i];
  if (same) return lastApiId;
  lastApi = b.slice(from, to);
  return (lastApiId = apiVersionId(Buffer.from(lastApi).toString('latin1')));
}

/** the position after `want` when `b` holds it at `at`, else 0 */
function expect(b: Uint8Array, at: number, want: Uint8Array): number {
  for (let i = 0; i < want.length; i++) if (b[at + i] !== want[i]) return 0;
  return at + want.length;
}

/** the position after a string's closing quote, when its text is plain ASCII; else 0 */
export function skipPlainString(b: Uint8Array, at: number): number {
  for (let i = at; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22 /* " */) return i + 1;
    if (c === 0x5c /* \ */ || c >= 0x80) return 0;
  }
  return 0;
}
