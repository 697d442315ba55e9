// Protobuf wire format: varints, fixed-width numbers and length-delimited fields.

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export class Reader {
  buf: Uint8Array;
  pos: number;
  end: number;
  constructor(buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  done(): boolean { return this.pos >= this.end; }

  /** an unsigned varint as a number (64-bit values beyond 2^53 lose precision) */
  varint(): number {
    const buf = this.buf;
    let b = buf[this.pos++]!;
    if (b < 0x80 && this.pos <= this.end) return b;
    let result = b & 0x7f, mul = 128;
    for (let i = 1; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      b = buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new Error('varint too long');
  }

  /** a varint read as a signed 64-bit value (negative ints take ten bytes) */
  int64(): number {
    const start = this.pos;
    const v = this.varint();
    if (this.pos - start < 10) return v;
    let big = 0n, shift = 0n;
    for (let p = start; p < this.pos; p++) { big |= BigInt(this.buf[p]! & 0x7f) << shift; shift += 7n; }
    return Number(BigInt.asIntN(64, big));
  }

  /** the start of a length-delimited field's content; the reader moves past it */
  delimited(): number {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new Error('truncated length-delimited field');
    this.pos = start + len;
    return start;
  }

  bytes(): Uint8Array {
    const start = this.delimited();
    return this.buf.subarray(start, this.pos);
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT: this.varint(); break;
      case WIRE_FIXED64: this.pos += 8; break;
      case WIRE_BYTES: this.delimited(); break;
      case WIRE_FIXED32: this.pos += 4; break;
      default: throw new Error(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new Error('truncated field');
  }

  double(): number { const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true); this.pos += 8; return v; }
  float(): number { const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4).getFloat32(0, true); this.pos += 4; return v; }
}

/** a growable output buffer; nested messages are written in place and their length patched in */
export class Writer {
  buf: Buffer;
  pos = 0;
  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** a non-negative integer up to 2^53 */
  varint(n: number): void {
    this.ensure(10);
    const buf = this.buf;
    while (n >= 0x80) {
      buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    buf[this.pos++] = n;
  }

  /** a signed integer: negatives as their 64-bit two's complement, ten bytes */
  int64(n: number): void {
    if (n >= 0) { this.varint(n); return; }
    let v = BigInt.asUintN(64, BigInt(Math.trunc(n)));
    this.ensure(10);
    for (let i = 0; i < 9; i++) { this.buf[this.pos++] = Number(v & 0x7fn) | 0x80; v >>= 7n; }
    this.buf[this.pos++] = Number(v);
  }

  tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  double(n: number): void { this.ensure(8); this.buf.writeDoubleLE(n, this.pos); this.pos += 8; }
  float(n: number): void { this.ensure(4); this.buf.writeFloatLE(n, this.pos); this.pos += 4; }

  /** opens a length-delimited field: returns where its one-byte length placeholder sits */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** closes a field opened by begin(): writes its length, shifting the content if it needs more bytes */
  end(at: number): void {
    const len = this.pos - at - 1;
    if (len < 0x80) { this.buf[at] = len; return; }
    let extra = 1;
    for (let l = len >>> 14; l > 0; l >>>= 7) extra++;
    this.ensure(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    this.pos += extra;
    let n = len, p = at;
    while (n >= 0x80) { this.buf[p++] = (n & 0x7f) | 0x80; n >>>= 7; }
    this.buf[p] = n;
  }

  string(s: string): void {
    const at = this.begin();
    const n = s.length;
    this.ensure(n * 3);
    const buf = this.buf;
    let p = this.pos, i = 0;
    // short ASCII strings are the common case; a native call costs more than the loop
    if (n < 64) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[p++] = c;
      }
    }
    this.pos = i === n ? p : this.pos + buf.write(s, this.pos, 'utf8');
    this.end(at);
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
