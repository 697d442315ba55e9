// Protobuf wire format reading: varints and length-delimited fields.

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
    let result = 0, mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const b = this.buf[this.pos++]!;
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

  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.end) throw new Error('truncated length-delimited field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0: this.varint(); break;
      case 1: this.pos += 8; break;
      case 2: this.bytes(); break;
      case 5: this.pos += 4; break;
      default: throw new Error(`unsupported wire type ${wireType}`);
    }
  }

  fixed64(): number { const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true); this.pos += 8; return v; }
  fixed32(): number { const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4).getFloat32(0, true); this.pos += 4; return v; }
}
