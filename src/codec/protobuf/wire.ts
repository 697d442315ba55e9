// The protobuf wire format through @bufbuild/protobuf's BinaryReader and BinaryWriter: varints,
// fixed-width numbers and length-delimited fields. The Reader keeps a window (pos, end) over
// one buffer so that nested messages are read in place, without copies; Kubernetes' JSON shapes
// (decode.ts, encode.ts) are built on these.

import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export class Reader {
  readonly buf: Uint8Array;
  /** where the current (nested) message ends */
  end: number;
  private readonly br: BinaryReader;

  constructor(buf: Uint8Array, pos = 0, end = buf.length) {
    this.buf = buf;
    this.br = new BinaryReader(buf);
    this.br.pos = pos;
    this.end = end;
  }

  get pos(): number { return this.br.pos; }
  set pos(p: number) { this.br.pos = p; }

  done(): boolean { return this.br.pos >= this.end; }

  /** an unsigned varint as a number (64-bit values beyond 2^53 lose precision) */
  varint(): number {
    const { buf } = this;
    const p = this.br.pos;
    // four bytes or fewer hold 28 bits: the 32-bit read is exact (tags and lengths, nearly always)
    if (buf[p]! < 0x80 || buf[p + 1]! < 0x80 || buf[p + 2]! < 0x80 || buf[p + 3]! < 0x80) return this.checked(this.br.uint32());
    return this.checked(Number(this.br.uint64()));
  }

  /** a varint read as a signed 64-bit value (negative ints take ten bytes) */
  int64(): number {
    return this.checked(Number(this.br.int64()));
  }

  private checked<T>(v: T): T {
    if (this.br.pos > this.end) throw new Error('truncated varint');
    return v;
  }

  /** the start of a length-delimited field's content; the reader moves past it */
  delimited(): number {
    const len = this.varint();
    const start = this.br.pos;
    if (start + len > this.end) throw new Error('truncated length-delimited field');
    this.br.pos = start + len;
    return start;
  }

  bytes(): Uint8Array {
    const start = this.delimited();
    return this.buf.subarray(start, this.br.pos);
  }

  skip(wireType: number): void {
    if (wireType !== WIRE_VARINT && wireType !== WIRE_FIXED64 && wireType !== WIRE_BYTES && wireType !== WIRE_FIXED32) throw new Error(`unsupported wire type ${wireType}`);
    if (wireType === WIRE_BYTES) this.delimited(); else this.br.skip(wireType);
    if (this.br.pos > this.end) throw new Error('truncated field');
  }

  double(): number { return this.checked(this.br.double()); }
  float(): number { return this.checked(this.br.float()); }
}

/** an output buffer; nested messages are opened with begin() and closed, length-prefixed, with end() */
export class Writer {
  private bw = new BinaryWriter();

  /** an empty length-delimited field's length (or any single byte) */
  byte(b: number): void { this.bw.raw(Uint8Array.of(b)); }
  raw(bytes: Uint8Array): void { this.bw.raw(bytes); }

  /** a non-negative integer up to 2^53 */
  varint(n: number): void {
    if (n <= 0xffffffff) this.bw.uint32(n); else this.bw.uint64(n);
  }

  /** a signed integer: negatives as their 64-bit two's complement, ten bytes */
  int64(n: number): void { this.bw.int64(Math.trunc(n)); }

  tag(field: number, wireType: number): void { this.bw.tag(field, wireType); }

  double(n: number): void { this.bw.double(n); }
  float(n: number): void { this.bw.float(n); }

  /** opens a length-delimited field (after its tag); the token is given back to end() */
  begin(): number { this.bw.fork(); return 0; }

  /** closes the field begin() opened, writing its length before its content */
  end(_at: number): void { this.bw.join(); }

  /** a length-delimited string */
  string(s: string): void { this.bw.string(s); }

  /** length-delimited bytes */
  bytes(b: Uint8Array): void { this.bw.bytes(b); }

  finish(): Uint8Array { return this.bw.finish(); }
}
