// A SPDY session between a client and a server over a real loopback socket: streams both ways,
// half-close, flow control on large transfers, pings, refusals and GOAWAY; and against a peer
// that, like moby/spdystream, never sends WINDOW_UPDATE.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { SpdySession } from '../../../../src/streaming/spdy/session.ts';
import type { SpdyStream } from '../../../../src/streaming/spdy/stream.ts';
import { FrameParser, encodeFrame, type Frame } from '../../../../src/streaming/spdy/frames.ts';
import { HeaderCompressor, HeaderDecompressor } from '../../../../src/streaming/spdy/header-block.ts';

async function socketPair(t: TestContext): Promise<{ client: net.Socket; server: net.Socket; close: () => void }> {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const accepted = once(srv, 'connection');
  const client = net.connect((srv.address() as net.AddressInfo).port, '127.0.0.1');
  const [server] = await accepted as [net.Socket];
  await once(client, 'connect');
  const close = () => { client.destroy(); server.destroy(); srv.close(); };
  t.after(close);
  return { client, server, close };
}

async function sessions(t: TestContext) {
  const pair = await socketPair(t);
  const client = new SpdySession(pair.client, { server: false });
  const server = new SpdySession(pair.server, { server: true });
  return { client, server, pair };
}

// by events: a for-await would destroy a stream still being written when its reading ends
function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.once('end', () => resolve(Buffer.concat(chunks)));
    s.once('error', reject);
    s.resume(); // a stream paused on purpose stays paused when a 'data' listener comes
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('a client stream carries headers both ways and half-closes each direction on its own', async t => {
  const { client, server, pair } = await sessions(t);
  server.on('stream', (s: SpdyStream) => {
    assert.deepEqual(s.headers, { streamtype: ['stdin'], port: ['80'] });
    assert.equal(s.id % 2, 1, 'client streams are odd');
    s.reply({ answer: ['yes'] });
    void readAll(s).then(got => { s.write('got:'); s.end(got); });
  });
  const s = await client.openStream({ streamtype: ['stdin'], port: ['80'] });
  assert.deepEqual(s.replyHeaders, { answer: ['yes'] });
  s.end('hello');
  assert.equal((await readAll(s)).toString(), 'got:hello');
  pair.close();
});

test('the server opens streams too (even ids), and the peer may refuse them', async t => {
  const { client, server, pair } = await sessions(t);
  client.on('stream', (s: SpdyStream) => {
    if (s.headers.kind?.[0] === 'no') { s.refuse(); return; }
    s.reply();
    s.end('from client');
  });
  const s = await server.openStream({ kind: ['yes'] }, { fin: true });
  assert.equal(s.id % 2, 0);
  assert.equal((await readAll(s)).toString(), 'from client');
  await assert.rejects(server.openStream({ kind: ['no'] }), /refused \(RST_STREAM status 3\)/);
  pair.close();
});

test('a session without a stream handler refuses streams', async t => {
  const { client, pair } = await sessions(t);
  await assert.rejects(client.openStream({ a: ['1'] }), /status 3/);
  pair.close();
});

test('10 MB each way between two sessions, windows kept and acknowledged', async t => {
  const { client, server, pair } = await sessions(t);
  const up = randomBytes(10 * 1024 * 1024);
  const down = randomBytes(10 * 1024 * 1024);
  let serverGot = '';
  server.on('stream', (s: SpdyStream) => {
    s.reply();
    void readAll(s).then(b => { serverGot = sha(b); });
    s.end(down);
  });
  const started = performance.now();
  const s = await client.openStream({});
  s.end(up);
  const got = await readAll(s);
  assert.equal(sha(got), sha(down));
  while (serverGot === '') await new Promise(r => setTimeout(r, 10));
  assert.equal(serverGot, sha(up));
  assert.ok(performance.now() - started < 5000);
  pair.close();
});

test('with windows kept, a reader that falls behind holds its own stream, not the connection', async t => {
  const { client, server } = await sessions(t);
  const streams: SpdyStream[] = [];
  server.on('stream', (s: SpdyStream) => { s.reply(); streams.push(s); });
  const first = await client.openStream({});
  await new Promise(r => setTimeout(r, 20));
  streams[0]!.pause(); // a reader that is behind
  first.end(Buffer.alloc(2 * 1024 * 1024)); // more than its window and its buffer hold
  await new Promise(r => setTimeout(r, 100));
  // a second stream on the same connection still gets through while the first is unread
  const second = await client.openStream({});
  second.end('second');
  await new Promise(r => setTimeout(r, 20));
  assert.equal((await readAll(streams[1]!)).toString(), 'second');
  assert.equal((await readAll(streams[0]!)).length, 2 * 1024 * 1024);
});

test('a reader that stops holds the sender at the window, then everything arrives', async t => {
  const { client, server, pair } = await sessions(t);
  let received = 0;
  pair.server.on('data', (c: Buffer) => { received += c.length; });
  let serverStream!: SpdyStream;
  const opened = new Promise<void>(resolve => server.on('stream', (s: SpdyStream) => { s.reply(); serverStream = s; resolve(); }));
  const s = await client.openStream({});
  await opened;
  serverStream.pause();
  const payload = randomBytes(8 * 1024 * 1024);
  s.end(payload);
  await new Promise(r => setTimeout(r, 300));
  // at most the 1 MiB window, the readable buffer and what sits in socket buffers
  assert.ok(received < 4 * 1024 * 1024, `received ${received} bytes while the reader was paused`);
  assert.equal(sha(await readAll(serverStream)), sha(payload));
  pair.close();
});

test('pings are answered; GOAWAY ends the session on both sides', async t => {
  const { client, server, pair } = await sessions(t);
  server.on('stream', (s: SpdyStream) => s.reply());
  const rtt = await client.ping();
  assert.ok(rtt >= 0 && rtt < 1000);
  assert.ok(await server.ping() >= 0);
  const s = await client.openStream({});
  const goaway = once(client, 'goaway');
  await server.close();
  await goaway;
  await client.closed;
  // the stream's readable side ends with the session
  await readAll(s);
  await assert.rejects(client.openStream({}), /closed/);
  pair.close();
});

test('a peer that never sends WINDOW_UPDATE (as spdystream) gets large transfers and is sent none', async t => {
  const pair = await socketPair(t);
  const server = new SpdySession(pair.server, { server: true });
  let uploaded = 0;
  server.on('stream', (s: SpdyStream) => {
    s.reply();
    s.on('data', (c: Buffer) => { uploaded += c.length; });
    s.on('end', () => s.end(Buffer.alloc(3 * 1024 * 1024, 1)));
  });
  // a hand-driven peer: opens stream 1, uploads 2 MiB in one go, then only reads
  const c = new HeaderCompressor();
  const d = new HeaderDecompressor();
  pair.client.write(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, flags: 0, block: await c.compress({ streamtype: ['stdout'] }) }));
  for (let i = 0; i < 32; i++) pair.client.write(encodeFrame({ type: 'data', streamId: 1, flags: i === 31 ? 1 : 0, data: Buffer.alloc(64 * 1024, 2) }));
  const parser = new FrameParser();
  const seen: Frame['type'][] = [];
  let bytes = 0;
  let fin = false;
  for await (const chunk of pair.client) {
    for (const f of parser.push(chunk as Buffer)) {
      seen.push(f.type);
      if (f.type === 'syn_reply') assert.deepEqual(await d.decompress(f.block), {});
      if (f.type === 'data') { bytes += f.data.length; fin ||= (f.flags & 1) === 1; }
    }
    if (fin) break;
  }
  assert.equal(uploaded, 2 * 1024 * 1024);
  assert.equal(bytes, 3 * 1024 * 1024);
  // our announcement first; after it, no WINDOW_UPDATE for the 2 MiB read
  assert.deepEqual(seen.slice(0, 3), ['settings', 'window_update', 'syn_reply']);
  assert.equal(seen.filter(x => x === 'window_update').length, 1);
  c.close(); d.close();
});

test('a peer that keeps windows is sent WINDOW_UPDATEs for what was read', async t => {
  const pair = await socketPair(t);
  const server = new SpdySession(pair.server, { server: true });
  const read = new Promise<number>(resolve => server.on('stream', (s: SpdyStream) => {
    s.reply();
    let n = 0;
    s.on('data', (c: Buffer) => { n += c.length; });
    s.on('end', () => resolve(n));
  }));
  const c = new HeaderCompressor();
  // the peer shows it keeps windows (a stream WINDOW_UPDATE of 0 changes nothing else)
  pair.client.write(encodeFrame({ type: 'window_update', streamId: 0, delta: 1 }));
  pair.client.write(encodeFrame({ type: 'syn_stream', streamId: 1, associatedId: 0, priority: 0, flags: 0, block: await c.compress({}) }));
  for (let i = 0; i < 16; i++) pair.client.write(encodeFrame({ type: 'data', streamId: 1, flags: i === 15 ? 1 : 0, data: Buffer.alloc(64 * 1024) }));
  assert.equal(await read, 1024 * 1024);
  const parser = new FrameParser();
  const updates: number[][] = [];
  pair.client.on('data', (chunk: Buffer) => {
    for (const f of parser.push(chunk)) if (f.type === 'window_update') updates.push([f.streamId, f.delta]);
  });
  await new Promise(r => setTimeout(r, 50));
  // our announcement, then windows reopened for what was read, once half a window had been
  assert.deepEqual(updates[0], [0, 1024 * 1024 - 65536]);
  const session = updates.slice(1).filter(([id]) => id === 0).reduce((sum, [, d]) => sum + d!, 0);
  // (the stream's own window only while it is open: one that ended needs none)
  assert.ok(session >= 512 * 1024 && session <= 1024 * 1024, `session window reopened by ${session}: ${JSON.stringify(updates)}`);
  c.close();
});

test('bytes that are not SPDY/3 end the session with GOAWAY PROTOCOL_ERROR', async t => {
  const pair = await socketPair(t);
  const server = new SpdySession(pair.server, { server: true });
  const parser = new FrameParser();
  const frames: Frame[] = [];
  pair.client.on('data', (c: Buffer) => frames.push(...parser.push(c)));
  // a control frame of SPDY/2
  pair.client.write(Buffer.from('800200060000000400000001', 'hex'));
  await server.closed;
  await once(pair.client, 'end');
  assert.deepEqual(frames.at(-1), { type: 'goaway', lastGoodId: 0, status: 1 });
});

test('a SYN_STREAM with a wrong id parity is reset with PROTOCOL_ERROR, the session goes on', async t => {
  const pair = await socketPair(t);
  const server = new SpdySession(pair.server, { server: true });
  server.on('stream', (s: SpdyStream) => s.reply());
  const client = new SpdySession(pair.client, { server: true }); // wrongly even ids, like a second server
  await assert.rejects(client.openStream({}), /RST_STREAM status 1/);
  assert.ok(server.isOpen && client.isOpen);
});

test('a stream destroyed before it is done resets it, so the peer is not left waiting', async t => {
  const { client, server } = await sessions(t);
  const opened = new Promise<SpdyStream>(resolve => server.on('stream', (s: SpdyStream) => { s.reply(); resolve(s); }));
  const s = await client.openStream({});
  const peer = await opened;
  const reset = once(peer, 'reset');
  s.destroy();
  const [status] = await reset as [number];
  assert.equal(status, 5); // CANCEL
  // its readable side ends for the peer, and the session goes on
  await readAll(peer);
  assert.ok(await client.ping() >= 0);
});

test('a ping still unanswered when the session ends is rejected', async t => {
  const pair = await socketPair(t);
  const client = new SpdySession(pair.client, { server: false }); // the other end speaks no SPDY
  const ping = client.ping();
  pair.server.destroy();
  await assert.rejects(ping, /closed/);
});
