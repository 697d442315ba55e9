// SPDY/3 frames as bytes, and header blocks through the shared compression contexts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { spdy3Dictionary } from '../../../../src/streaming/spdy/dictionary.ts';
import { FrameParser, encodeFrame, FrameError, type Frame } from '../../../../src/streaming/spdy/frames.ts';
import { HeaderCompressor, HeaderDecompressor, decodeHeaderBlock, encodeHeaderBlock, HeaderBlockError } from '../../../../src/streaming/spdy/header-block.ts';

function adler32(b: Buffer): number {
  let a = 1, s = 0;
  for (const x of b) { a = (a + x) % 65521; s = (s + a) % 65521; }
  return (s * 65536 + a) >>> 0;
}

test('the dictionary is the draft\'s 1,423 bytes', () => {
  assert.equal(spdy3Dictionary.length, 1423);
  // SHA-256 of the byte listing in draft-mbelshe-httpbis-spdy-00 2.6.10.1 (as Go's spdy package has it)
  assert.equal(createHash('sha256').update(spdy3Dictionary).digest('hex'), '51d27341373f923f3cd88e1eb7162aeaa3723d7585ff2399201dc06498407f02');
  assert.equal(spdy3Dictionary.subarray(0, 11).toString('latin1'), '\0\0\0\x07options');
  assert.ok(spdy3Dictionary.toString('latin1').endsWith('utf-,*,enq=0.'));
});

test('control and data frames have the draft\'s layout', () => {
  // PING id 5: control bit + version 3, type 6, no flags, length 4
  assert.equal(encodeFrame({ type: 'ping', id: 5 }).toString('hex'), '800300060000000400000005');
  assert.equal(encodeFrame({ type: 'rst_stream', streamId: 3, status: 5 }).toString('hex'), '80030003000000080000000300000005');
  assert.equal(encodeFrame({ type: 'window_update', streamId: 0, delta: 0x10000 }).toString('hex'), '80030009000000080000000000010000');
  assert.equal(encodeFrame({ type: 'goaway', lastGoodId: 7, status: 0 }).toString('hex'), '80030007000000080000000700000000');
  assert.equal(encodeFrame({ type: 'settings', flags: 0, entries: [{ flags: 0, id: 7, value: 65536 }] }).toString('hex'), '800300040000000c000000010000000700010000');
  // DATA on stream 1 with FIN, 2 bytes
  assert.equal(encodeFrame({ type: 'data', streamId: 1, flags: 1, data: Buffer.from('hi') }).toString('hex'), '00000001010000026869');
  // SYN_STREAM: stream id, associated id, priority in the top 3 bits, slot, then the block
  assert.equal(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 7, flags: 0, block: Buffer.from([0xaa]) }).toString('hex'), '800300010000000b0000000100000000e000aa');
});

test('frames round-trip through the parser, whatever the chunking', () => {
  const frames: Frame[] = [
    { type: 'syn_stream', streamId: 1, associatedId: 0, priority: 2, flags: 2, block: Buffer.from('abc') },
    { type: 'syn_reply', streamId: 1, flags: 1, block: Buffer.from('d') },
    { type: 'headers', streamId: 1, flags: 0, block: Buffer.alloc(0) },
    { type: 'data', streamId: 1, flags: 0, data: Buffer.alloc(70_000, 7) },
    { type: 'rst_stream', streamId: 3, status: 3 },
    { type: 'settings', flags: 1, entries: [{ flags: 1, id: 4, value: 100 }, { flags: 0, id: 7, value: 1 << 20 }] },
    { type: 'ping', id: 2 },
    { type: 'goaway', lastGoodId: 9, status: 1 },
    { type: 'window_update', streamId: 5, delta: 12345 },
    { type: 'data', streamId: 5, flags: 1, data: Buffer.alloc(0) },
  ];
  const bytes = Buffer.concat(frames.map(encodeFrame));
  for (const size of [1, 7, 1000, bytes.length]) {
    const p = new FrameParser();
    const got: Frame[] = [];
    for (let i = 0; i < bytes.length; i += size) got.push(...p.push(bytes.subarray(i, i + size)));
    assert.deepEqual(got, frames, `chunks of ${size}`);
  }
});

test('unknown control frames are passed up to be ignored; other SPDY versions are refused', () => {
  const unknown = Buffer.from('8003000a0100000000', 'hex').subarray(0, 8);
  assert.deepEqual(new FrameParser().push(unknown), [{ type: 'unknown', frameType: 10, flags: 1 }]);
  assert.throws(() => new FrameParser().push(Buffer.from('800200060000000400000001', 'hex')), FrameError);
  assert.throws(() => new FrameParser().push(Buffer.from('800300030000000400000001', 'hex')), /RST_STREAM frame too short/);
});

test('a header block holds lowercase names and NUL-joined values', () => {
  const block = encodeHeaderBlock({ StreamType: ['error'], 'x-many': ['a', 'b'], empty: [] });
  assert.equal(block.toString('hex'), '00000002' + '0000000a' + Buffer.from('streamtype').toString('hex') + '00000005' + Buffer.from('error').toString('hex')
    + '00000006' + Buffer.from('x-many').toString('hex') + '00000003' + Buffer.from('a\0b').toString('hex'));
  assert.deepEqual(decodeHeaderBlock(block), { streamtype: ['error'], 'x-many': ['a', 'b'] });
  assert.throws(() => decodeHeaderBlock(encodeHeaderBlock({}).subarray(0, 3)), HeaderBlockError);
  const upper = Buffer.from('00000001000000014100000001' + '62', 'hex');
  assert.throws(() => decodeHeaderBlock(upper), /not lowercased/);
});

test('header blocks share one compression context per direction, primed with the dictionary', async () => {
  const c = new HeaderCompressor();
  const d = new HeaderDecompressor();
  const headers = (i: number) => ({ streamtype: ['data'], port: ['8080'], requestid: [String(i)] });
  const blocks = await Promise.all([0, 1, 2, 3].map(i => c.compress(headers(i))));
  // the first block names the dictionary (FDICT with its Adler-32), later ones lean on the history
  assert.equal(blocks[0]![0], 0x78);
  assert.ok(blocks[0]![1]! & 0x20, 'FDICT set');
  assert.equal(blocks[0]!.readUInt32BE(2), adler32(spdy3Dictionary));
  assert.ok(blocks[3]!.length < blocks[0]!.length / 2, `later blocks are small: ${blocks.map(b => b.length)}`);
  // each block is complete on its own given the earlier ones (sync flush), and only in order
  for (let i = 0; i < 4; i++) assert.deepEqual(await d.decompress(blocks[i]!), headers(i));
  assert.throws(() => inflateSync(blocks[1]!, { dictionary: spdy3Dictionary }));
  const fresh = new HeaderDecompressor();
  await assert.rejects(fresh.decompress(blocks[2]!));
  c.close(); d.close(); fresh.close();
});
