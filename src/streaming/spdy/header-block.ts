// SPDY/3 name/value header blocks and their compression. Every header block a peer sends goes
// through ONE zlib stream per direction for the whole session (the draft's "single compression
// context"), primed with the SPDY/3 dictionary and ended by a sync flush per frame, so the
// receiver can inflate each frame's block as it arrives. The contexts live as long as the session
// and must see the blocks in frame order, which the session guarantees by compressing and
// inflating in the order frames are sent and received.

import zlib from 'node:zlib';
import { spdy3Dictionary } from './dictionary.ts';

/** header names (lowercase, as SPDY/3 requires) to their values; a repeated header has several */
export type SpdyHeaders = Record<string, string[]>;

/** the uncompressed block: pair count, then length-prefixed names and NUL-joined values */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const count = Buffer.alloc(4);
  let pairs = 0;
  for (const [name, values] of Object.entries(headers)) {
    if (values.length === 0) continue;
    pairs++;
    for (const text of [name.toLowerCase(), values.join('\0')]) {
      const bytes = Buffer.from(text, 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(bytes.length);
      parts.push(len, bytes);
    }
  }
  count.writeUInt32BE(pairs);
  return Buffer.concat([count, ...parts]);
}

export class HeaderBlockError extends Error {}

/** the inverse of encodeHeaderBlock; a malformed block is a protocol error for the session */
export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = {};
  let at = 0;
  const take = (): Buffer => {
    if (at + 4 > block.length) throw new HeaderBlockError('header block truncated');
    const len = block.readUInt32BE(at);
    at += 4;
    if (at + len > block.length) throw new HeaderBlockError('header block truncated');
    const out = block.subarray(at, at + len);
    at += len;
    return out;
  };
  if (block.length < 4) throw new HeaderBlockError('header block truncated');
  const pairs = block.readUInt32BE(0);
  at = 4;
  for (let i = 0; i < pairs; i++) {
    const name = take().toString('utf8');
    const value = take().toString('utf8');
    if (name === '') throw new HeaderBlockError('empty header name');
    if (name !== name.toLowerCase()) throw new HeaderBlockError(`header ${JSON.stringify(name)} was not lowercased`);
    if (headers[name]) throw new HeaderBlockError(`header ${JSON.stringify(name)} sent twice`);
    headers[name] = value.split('\0');
  }
  return headers;
}

/** runs one zlib stream a block at a time: write, sync flush, collect what came out */
class ZlibContext {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly z: zlib.Deflate | zlib.Inflate;
  constructor(z: zlib.Deflate | zlib.Inflate) {
    this.z = z;
    // errors surface through the flush of the block that caused them
    z.on('error', () => {});
  }

  process(input: Buffer): Promise<Buffer> {
    const run = this.queue.then(() => new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const onData = (c: Buffer) => chunks.push(c);
      const onError = (err: Error) => { cleanup(); reject(err); };
      const cleanup = () => { this.z.off('data', onData); this.z.off('error', onError); };
      this.z.on('data', onData);
      this.z.once('error', onError);
      this.z.write(input);
      this.z.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        // output of the flush is pushed before its callback; read() picks up anything buffered
        let c: Buffer | null;
        while ((c = this.z.read() as Buffer | null) !== null) chunks.push(c);
        cleanup();
        resolve(Buffer.concat(chunks));
      });
    }));
    this.queue = run.catch(() => {});
    return run;
  }

  close(): void { this.z.destroy(); }
}

/** the sending side's context: compresses each frame's header block */
export class HeaderCompressor {
  private readonly ctx = new ZlibContext(zlib.createDeflate({ dictionary: spdy3Dictionary }));
  compress(headers: SpdyHeaders): Promise<Buffer> { return this.ctx.process(encodeHeaderBlock(headers)); }
  close(): void { this.ctx.close(); }
}

/** the receiving side's context: inflates each frame's header block */
export class HeaderDecompressor {
  private readonly ctx = new ZlibContext(zlib.createInflate({ dictionary: spdy3Dictionary }));
  async decompress(compressed: Buffer): Promise<SpdyHeaders> {
    return decodeHeaderBlock(await this.ctx.process(compressed));
  }
  close(): void { this.ctx.close(); }
}

/** a header's single value as Go's Header.Get reads it: the first, or '' */
export function headerValue(headers: SpdyHeaders, name: string): string {
  return headers[name.toLowerCase()]?.[0] ?? '';
}
