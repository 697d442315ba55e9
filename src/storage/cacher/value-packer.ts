// Packs the values a prefix's cache holds against a few templates (see packed-value.ts). The
// templates are earlier values: a value that no recent template describes in a fraction of its
// size becomes a template itself, so a resource whose objects change shape (pods gaining a
// status) soon has a template for each shape. Templates no longer used for new values live on
// only as long as values packed against them.

import type { KeyValue } from '../interface.ts';
import { PackedKeyValue, writeVarint } from '../packed-value.ts';

// Matches are found by hashing this many bytes; shorter equal runs stay literal, as a copy
// costs a few bytes of offsets itself.
const gram = 8;
// Values outside these bounds are kept as they are: short ones would save little, and a long
// one's template index would cost more than what similar values might save.
const minPacked = 128;
const maxPacked = 16 * 1024; // positions fit the template index's 16-bit entries
// Before a value is compared with a template byte by byte, this many of its grams are looked
// up in the template, and at least `samplesFound` must be there: a dissimilar value is turned
// away in a few lookups instead of a walk through its bytes.
const samples = 16;
const samplesFound = 8;
// After this many values in a row matched no template, only every `missEvery`th becomes one
// (a resource whose values are all unlike each other pays for few template indexes).
const missStreak = 4;
const missEvery = 32;
// Templates kept and tried for each new value, most recently useful first.
const maxTemplates = 4;
// A delta may hold at most this share of its value's bytes as literals.
const literalShare = 0.3;

interface Template {
  bytes: Uint8Array;
  /** per hash bucket, the last position whose gram hashes there, plus one (0: none) */
  heads: Uint16Array;
  /** per position, the previous position with the same bucket, plus one */
  chain: Uint16Array;
  mask: number;
}

// where deltas are built before they become strings (packing is synchronous: one serves all)
let scratch = Buffer.alloc(4096);

export class ValuePacker {
  private templates: Template[] = [];
  /** values in a row that matched no template */
  private misses = 0;

  /** the value packed, or the KeyValue itself when packing would not pay (short, long or empty values; most unlike ones after a streak) */
  pack(kv: KeyValue): KeyValue {
    if (kv instanceof PackedKeyValue) return kv;
    const v = kv.value;
    if (v.length < minPacked || v.length > maxPacked) return kv;
    const budget = Math.floor(v.length * literalShare);
    for (let n = 0; n < this.templates.length; n++) {
      const t = this.templates[n]!;
      const delta = this.encode(v, t, budget);
      if (delta === undefined) continue;
      if (n > 0) this.templates.unshift(...this.templates.splice(n, 1));
      this.misses = 0;
      return new PackedKeyValue(kv.key, kv.createRevision, kv.modRevision, t.bytes, delta);
    }
    this.misses++;
    if (this.misses > missStreak && this.misses % missEvery !== 0) return kv;
    const t = template(new Uint8Array(v));
    this.templates.unshift(t);
    if (this.templates.length > maxTemplates) this.templates.pop();
    return new PackedKeyValue(kv.key, kv.createRevision, kv.modRevision, t.bytes, this.encode(v, t, budget)!);
  }

  /** the delta of `v` against `t`, or undefined when it would need more literal bytes than `budget` */
  private encode(v: Uint8Array, t: Template, budget: number): string | undefined {
    const tb = t.bytes;
    const n = v.length;
    const m = tb.length;
    let found = 0;
    for (let s = 0; s < samples; s++) {
      const i = Math.floor(((n - gram) * s) / (samples - 1));
      if (find(t, v, i, Math.floor((i * m) / n)) >= 0) found++;
    }
    if (found < samplesFound) return undefined;
    // a delta is at most the value plus a few bytes per run; runs are at least a gram long
    if (scratch.length < 2 * n + 64) scratch = Buffer.alloc(2 * n + 64);
    const out = scratch;
    let at = writeVarint(out, 0, n);
    let literals = 0;
    let lit = 0; // start of the literal bytes not yet written
    let i = 0;
    let j = 0; // where in the template value byte i is expected
    while (i < n) {
      if (j < m && v[i] === tb[j]) {
        let k = 1;
        while (i + k < n && j + k < m && v[i + k] === tb[j + k]) k++;
        if (k >= gram || i + k === n) {
          at = writeVarint(out, at, i - lit);
          for (let p = lit; p < i; p++) out[at++] = v[p]!;
          at = writeVarint(out, at, j);
          at = writeVarint(out, at, k);
          i += k;
          j += k;
          lit = i;
          continue;
        }
        literals += k;
        i += k;
        j += k;
      } else {
        const p = n - i >= gram ? find(t, v, i, j) : -1;
        if (p >= 0) { j = p; continue; }
        literals++;
        i++;
        j++;
      }
      if (literals > budget) return undefined;
    }
    if (lit < n) {
      at = writeVarint(out, at, n - lit);
      for (let p = lit; p < n; p++) out[at++] = v[p]!;
    }
    return out.toString('latin1', 0, at);
  }
}

function hash(b: Uint8Array, i: number): number {
  const lo = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
  const hi = b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24);
  return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi ^ (lo >>> 15), 0x85ebca77)) >>> 0;
}

function template(bytes: Uint8Array): Template {
  let size = 1024;
  while (size < bytes.length) size *= 2;
  const mask = size - 1;
  const heads = new Uint16Array(size);
  const chain = new Uint16Array(bytes.length);
  for (let p = 0; p + gram <= bytes.length; p++) {
    const h = hash(bytes, p) & mask;
    chain[p] = heads[h]!;
    heads[h] = p + 1;
  }
  return { bytes, heads, chain, mask };
}

// positions checked per lookup: enough for JSON's repeated punctuation, bounded for the worst case
const maxCandidates = 16;

/** the template position holding the gram at v[i], the one nearest `near`; -1 when none */
function find(t: Template, v: Uint8Array, i: number, near: number): number {
  let best = -1;
  let cand = t.heads[hash(v, i) & t.mask]!;
  for (let tries = 0; cand !== 0 && tries < maxCandidates; tries++, cand = t.chain[cand - 1]!) {
    const p = cand - 1;
    if (best >= 0 && Math.abs(p - near) >= Math.abs(best - near)) continue;
    let k = 0;
    while (k < gram && t.bytes[p + k] === v[i + k]) k++;
    if (k === gram) best = p;
  }
  return best;
}
