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
    const d = this.delta;
    const t = this.template;
    const shift = at - from;
    cursor = 0;
    varint(d); // the length
    let pos = 0; // where in the value the next run starts
    while (cursor < d.length && pos < to) {
      const lit = varint(d);
      for (let p = Math.max(pos, from), e = Math.min(pos + lit, to), c = cursor + p - pos; p < e; p++) out[p + shift] = d.charCodeAt(c++);
      cursor += lit;
      pos += lit;
      if (cursor >= d.length) break;
      const off = varint(d) - pos; // template offset of value position `pos`
      const len = varint(d);
      const a = Math.max(pos, from);
      const b = Math.min(pos + len, to);
      // short runs are cheaper copied here than through a call into C++
      if (b - a > 16) copyBytes.call(t, out, a + shift, off + a, off + b);
      else for (let p = a; p < b; p++) out[p + shift] = t[off + p]!;
      pos += len;
    }
  }

  /**
   * Writes the value's bytes from `from` to its end into `out` at `at`, where `out` holds a
   * copy of the template at `tplAt` (a list's answer carries its templates after it): runs are
   * copied within the one buffer, cheaper than between two. Copies of the template in step with
   * each other (the literals between them replace as many bytes: a uid, a time's digits) are
   * made as one copy of the whole stretch, the literals written over it afterwards: a call into
   * C++ costs more than the bytes it copies twice.
   */
  copyInto(out: Uint8Array, at: number, from: number, tplAt: number): void {
    const d = this.delta;
    const n = d.length;
    const shift = at - from;
    let spanFrom = -1; // the stretch not yet copied: value positions [spanFrom, spanTo), none when < 0
    let spanTo = 0;
    let spanAt = 0; // where in `out` the stretch's template bytes for value position 0 are
    let held = 0; // literals inside the stretch, to be written once it is copied
    // varints are read in place: most are one byte (runs and literals are short)
    let c = 0;
    while (d.charCodeAt(c++) >= 0x80); // the length
    let pos = 0; // where in the value the next run starts
    while (c < n) {
      let lit = d.charCodeAt(c++);
      if (lit >= 0x80) { cursor = c - 1; lit = varint(d); c = cursor; }
      if (lit > 0 && pos + lit > from) {
        if (spanFrom >= 0 && held < maxHeld) {
          heldPos[held] = pos;
          heldAt[held] = c;
          heldLength[held++] = lit;
        } else {
          if (spanFrom >= 0) { copySpan(out, shift, spanAt, spanFrom < from ? from : spanFrom, spanTo); spanFrom = -1; }
          writeLiteral(d, c, out, shift, pos < from ? from : pos, pos + lit, pos);
        }
      }
      c += lit;
      pos += lit;
      if (c >= n) break;
      let off = d.charCodeAt(c++);
      if (off >= 0x80) { cursor = c - 1; off = varint(d); c = cursor; }
      let len = d.charCodeAt(c++);
      if (len >= 0x80) { cursor = c - 1; len = varint(d); c = cursor; }
      const runAt = tplAt + off - pos;
      if (pos + len <= from) { pos += len; continue; }
      if (spanFrom >= 0 && runAt === spanAt) {
        spanTo = pos + len;
      } else {
        if (spanFrom >= 0) copySpan(out, shift, spanAt, spanFrom < from ? from : spanFrom, spanTo);
        for (let h = 0; h < held; h++) writeLiteral(d, heldAt[h]!, out, shift, heldPos[h]! < from ? from : heldPos[h]!, heldPos[h]! + heldLength[h]!, heldPos[h]!);
        held = 0;
        spanFrom = pos;
        spanTo = pos + len;
        spanAt = runAt;
      }
      pos += len;
    }
    if (spanFrom >= 0) copySpan(out, shift, spanAt, spanFrom < from ? from : spanFrom, spanTo);
    for (let h = 0; h < held; h++) writeLiteral(d, heldAt[h]!, out, shift, heldPos[h]! < from ? from : heldPos[h]!, heldPos[h]! + heldLength[h]!, heldPos[h]!);
  }
}

// literals held back while their stretch of template is copied: where each is in the value and
// in the delta, and its length (module state: a copy allocates nothing)
const maxHeld = 16;
const heldPos = new Int32Array(maxHeld);
const heldAt = new Int32Array(maxHeld);
const heldLength = new Int32Array(maxHeld);

/** value positions [a, b) of the literal that starts at value position `pos` and delta position `c` */
function writeLiteral(d: string, c: number, out: Uint8Array, shift: number, a: number, b: number, pos: number): void {
  for (let p = a, k = c + a - pos; p < b; p++) out[p + shift] = d.charCodeAt(k++);
}

/** value positions [a, b) from the template's copy in `out` (value position 0 at `spanAt`) */
function copySpan(out: Uint8Array, shift: number, spanAt: number, a: number, b: number): void {
  if (b - a > 8) out.copyWithin(a + shift, spanAt + a, spanAt + b);
  else for (let p = a; p < b; p++) out[p + shift] = out[spanAt + p]!;
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
 * before the byte at `split` for the caller to fill (what they hold meanwhile is undefined);
 * returns how many it spans.
 * `tplAt`: where `out` holds a copy of a packed value's template (see copyRuns), or -1.
 */
export function copyValueSpliced(kv: KeyValue, out: Uint8Array, at: number, from: number, split: number, gap: number, tplAt = -1): number {
  const size = valueLength(kv);
  if (kv instanceof PackedKeyValue) {
    // written whole, then its bytes from `split` on moved up by the gap (one move of memory)
    if (tplAt >= 0) kv.copyInto(out, at, from, tplAt); else kv.copyTo(out, at, from, size);
    if (gap > 0) out.copyWithin(at + split - from + gap, at + split - from, at + size - from);
  } else {
    copyBytes.call(kv.value, out, at, from, split);
    copyBytes.call(kv.value, out, at + split - from + gap, split, size);
  }
  return size - from + gap;
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
