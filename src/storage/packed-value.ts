// A stored value kept as the difference from a similar value (its template). Objects of one
// resource are mostly alike — pods of one workload differ in their names, uids and times — so a
// cache holding a hundred thousand of them keeps a few templates and, per object, a short
// delta instead of two kilobytes. The bytes are rebuilt on demand; writers that copy values
// into a larger buffer (lists) write the runs straight in without rebuilding each value.
//
// A delta is a one-byte (latin1) string, the most compact thing a V8 heap holds per object:
// the value's length, then runs of `literal length, literal bytes, template offset, copy length`.

import type { KeyValue } from './interface.ts';

export class PackedKeyValue implements KeyValue {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  /** the template's bytes, shared by every value packed against it */
  readonly template: Uint8Array;
  readonly delta: string;
  /**
   * What a reader of these bytes worked out and keeps, since they never change (the registry
   * keeps where the JSON head's parts are); -1 until then. A small integer: no allocation.
   */
  note = -1;

  constructor(key: string, createRevision: number, modRevision: number, template: Uint8Array, delta: string) {
    this.key = key;
    this.createRevision = createRevision;
    this.modRevision = modRevision;
    this.template = template;
    this.delta = delta;
  }

  /** the value's bytes, rebuilt on every access */
  get value(): Uint8Array {
    const out = new Uint8Array(this.size);
    this.copyTo(out, 0, 0, out.length);
    return out;
  }

  get size(): number {
    cursor = 0;
    return varint(this.delta);
  }

  /** writes bytes [from, to) of the value into `out` at `at` */
  copyTo(out: Uint8Array, at: number, from: number, to: number): void {
    this.copyRuns(out, at - from, from, to, to, 0);
  }

  /**
   * Writes bytes [from, to) of the value into `out`: byte p before `split` at p + `lo`, from
   * `split` on at p + `hi` (a list writes a value in one pass with a gap for what it inserts).
   * `tplAt`: where `out` holds a copy of the template, to copy from within it (cheaper than
   * between two arrays); -1: copied from the template itself.
   */
  copyRuns(out: Uint8Array, lo: number, from: number, to: number, split: number, hi: number, tplAt = -1): void {
    const d = this.delta;
    const t = this.template;
    const n = d.length;
    // Copies of the template in step with each other (the literals between them replace as many
    // bytes: a uid, a time's digits) are made as one copy of the whole stretch, the literals
    // written over it afterwards: a call into C++ costs more than the bytes it copies twice.
    let spanFrom = 0; // the stretch not yet copied: value positions [spanFrom, spanTo)
    let spanTo = 0;
    let spanOff = 0; // template position of value position 0 within the stretch
    let held = 0; // literals inside the stretch, to be written once it is copied
    // varints are read in place: most are one byte (runs and literals are short)
    let c = 0;
    while (d.charCodeAt(c++) >= 0x80); // the length
    let pos = 0; // where in the value the next run starts
    while (c < n && pos < to) {
      let lit = d.charCodeAt(c++);
      if (lit >= 0x80) { cursor = c - 1; lit = varint(d); c = cursor; }
      if (lit > 0) {
        if (spanTo > spanFrom && held < maxHeld) {
          heldAt[held * 2] = pos;
          heldAt[held * 2 + 1] = c;
          heldLength[held++] = lit;
        } else {
          if (spanTo > spanFrom) { copySpan(t, out, spanOff, spanFrom, spanTo, from, to, split, lo, hi, tplAt); spanTo = spanFrom; }
          writeLiteral(d, c, out, pos, lit, from, to, split, lo, hi);
        }
      }
      c += lit;
      pos += lit;
      if (c >= n) break;
      let off = d.charCodeAt(c++);
      if (off >= 0x80) { cursor = c - 1; off = varint(d); c = cursor; }
      let len = d.charCodeAt(c++);
      if (len >= 0x80) { cursor = c - 1; len = varint(d); c = cursor; }
      off -= pos;
      if (spanTo > spanFrom && off === spanOff && spanTo + (held > 0 ? heldLength[held - 1]! : 0) >= pos) {
        spanTo = pos + len;
      } else {
        if (spanTo > spanFrom) copySpan(t, out, spanOff, spanFrom, spanTo, from, to, split, lo, hi, tplAt);
        for (let h = 0; h < held; h++) writeLiteral(d, heldAt[h * 2 + 1]!, out, heldAt[h * 2]!, heldLength[h]!, from, to, split, lo, hi);
        held = 0;
        spanFrom = pos;
        spanTo = pos + len;
        spanOff = off;
      }
      pos += len;
    }
    if (spanTo > spanFrom) copySpan(t, out, spanOff, spanFrom, spanTo, from, to, split, lo, hi, tplAt);
    for (let h = 0; h < held; h++) writeLiteral(d, heldAt[h * 2 + 1]!, out, heldAt[h * 2]!, heldLength[h]!, from, to, split, lo, hi);
  }
}

// literals held back while their stretch of template is copied: where each is in the value and
// the delta, and its length (module state: a copy allocates nothing)
const maxHeld = 16;
const heldAt = new Int32Array(maxHeld * 2);
const heldLength = new Int32Array(maxHeld);

/** the literal at delta position `c`, value positions [pos, pos + len), clipped to [from, to) */
function writeLiteral(d: string, c: number, out: Uint8Array, pos: number, len: number, from: number, to: number, split: number, lo: number, hi: number): void {
  const a = pos < from ? from : pos;
  const b = pos + len < to ? pos + len : to;
  const m = b < split ? b : split; // bytes before the split, then those from it
  let k = c + a - pos;
  let p = a;
  for (; p < m; p++) out[p + lo] = d.charCodeAt(k++);
  for (; p < b; p++) out[p + hi] = d.charCodeAt(k++);
}

/** template bytes for value positions [spanFrom, spanTo) clipped to [from, to); the template's are `off` further */
function copySpan(t: Uint8Array, out: Uint8Array, off: number, spanFrom: number, spanTo: number, from: number, to: number, split: number, lo: number, hi: number, tplAt: number): void {
  const a = spanFrom < from ? from : spanFrom;
  const b = spanTo < to ? spanTo : to;
  if (a < split && b > split) {
    copyRun(t, out, off, a, split, lo, tplAt);
    copyRun(t, out, off, split, b, hi, tplAt);
  } else if (a < b) {
    copyRun(t, out, off, a, b, a < split ? lo : hi, tplAt);
  }
}

/** template bytes [a, b) (value positions; the template's are `off` further) into `out`, `shift` further */
function copyRun(t: Uint8Array, out: Uint8Array, off: number, a: number, b: number, shift: number, tplAt: number): void {
  // short runs are cheaper copied here than through a call into C++
  if (tplAt >= 0) {
    if (b - a > 8) out.copyWithin(a + shift, tplAt + off + a, tplAt + off + b);
    else for (let p = a, q = tplAt + off + a; p < b; p++) out[p + shift] = out[q++]!;
  } else if (b - a > 16) copyBytes.call(t, out, a + shift, off + a, off + b);
  else for (let p = a; p < b; p++) out[p + shift] = t[off + p]!;
}

/** the value's length, for plain and packed values alike */
export function valueLength(kv: KeyValue): number {
  return kv instanceof PackedKeyValue ? kv.size : kv.value.length;
}

/**
 * The value's bytes [from, to): a view of a plain value; a packed one's copied into `scratch`
 * when it is large enough (the next call may overwrite it), else into a new array.
 */
export function valueBytes(kv: KeyValue, from: number, to: number, scratch?: Uint8Array): Uint8Array {
  if (!(kv instanceof PackedKeyValue)) return kv.value.subarray(from, to);
  const n = Math.max(0, Math.min(to, kv.size) - from);
  const out = scratch && scratch.length >= n ? scratch.subarray(0, n) : new Uint8Array(n);
  kv.copyTo(out, 0, from, from + n);
  return out;
}

/** writes the value's bytes [from, to) into `out` at `at` */
export function copyValueRange(kv: KeyValue, out: Uint8Array, at: number, from: number, to: number): void {
  if (kv instanceof PackedKeyValue) kv.copyTo(out, at, from, to);
  else for (let p = from, v = kv.value; p < to; p++) out[at++] = v[p]!;
}

/**
 * Writes the value's bytes from `from` to its end into `out` at `at`, leaving `gap` bytes
 * unwritten before the byte at `split` (for the caller to fill); returns how many it spans.
 * `tplAt`: where `out` holds a copy of a packed value's template (see copyRuns), or -1.
 */
export function copyValueSpliced(kv: KeyValue, out: Uint8Array, at: number, from: number, split: number, gap: number, tplAt = -1): number {
  if (kv instanceof PackedKeyValue) {
    const size = kv.size;
    kv.copyRuns(out, at - from, from, size, split, at - from + gap, tplAt);
    return size - from + gap;
  }
  const v = kv.value;
  copyBytes.call(v, out, at, from, split);
  copyBytes.call(v, out, at + split - from + gap, split, v.length);
  return v.length - from + gap;
}

/** writes the value's bytes from `from` to its end into `out` at `at`; returns how many */
export function copyValue(kv: KeyValue, out: Uint8Array, at: number, from: number): number {
  if (kv instanceof PackedKeyValue) {
    const size = kv.size;
    kv.copyTo(out, at, from, size);
    return size - from;
  }
  out.set(kv.value.subarray(from), at);
  return kv.value.length - from;
}

// Buffer's copy works on any Uint8Array and, unlike set, needs no subarray made for the source
const copyBytes = Buffer.prototype.copy;

// Varints are chars 0-255 holding seven bits each, low first (as protobuf's). Reading one moves
// the module's cursor: no pair is allocated per number on the paths that copy values out.
let cursor = 0;

function varint(s: string): number {
  let n = 0;
  let mul = 1;
  for (;;) {
    const c = s.charCodeAt(cursor++);
    n += (c & 0x7f) * mul;
    if (c < 0x80) return n;
    mul *= 0x80;
  }
}

/** appends `n` as a varint to `out` at `at`; returns the new end */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[at++] = n;
  return at;
}
