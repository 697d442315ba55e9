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
      // short runs are cheaper copied here than through a subarray
      if (b - a > 32) out.set(t.subarray(off + a, off + b), a + shift);
      else for (let p = a; p < b; p++) out[p + shift] = t[off + p]!;
      pos += len;
    }
  }
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
