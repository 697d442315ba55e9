// exec over SPDY, server end against the client end: negotiation and its refusals, the streams
// waited for, the error channel per protocol version, resize messages, the stream timeout.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { acceptSpdyCommand, terminalSizes, type SpdyCommandOptions } from '../../../../src/streaming/spdy/command.ts';
import { dialSpdy, openCommandStreams, SpdyDialError } from '../../../../src/streaming/spdy/client.ts';
import type { CommandStreams, TerminalSize } from '../../../../src/streaming/streams.ts';
import type { Status } from '../../../../src/api/status.ts';

const exit3 = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'command terminated with non-zero exit code: exit status 3', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] }, code: 500 } as unknown as Status;

async function server(t: TestContext, opts: SpdyCommandOptions, run: (c: CommandStreams) => void): Promise<{ url: string; failures: Error[] }> {
  const failures: Error[] = [];
  const srv = http.createServer((_req, res) => { res.writeHead(404); res.end(); });
  srv.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    acceptSpdyCommand(req, socket, head, opts).then(run, (err: Error) => failures.push(err));
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  return { url: `http://127.0.0.1:${(srv.address() as import('node:net').AddressInfo).port}/exec`, failures };
}

// the fake command: stdin back on stdout, a line on stderr, then exit code 3
function echoExit3(c: CommandStreams): void {
  c.stderr?.write('to stderr\n');
  c.stdin!.pipe(c.stdout!, { end: false });
  c.stdin!.on('end', () => c.finish(exit3));
}

const all = { stdin: true, stdout: true, stderr: true, tty: false };

test('v4: streams relayed, the exit code as a Status on the error channel', async t => {
  const { url } = await server(t, { streams: all }, echoExit3);
  const { session, protocol } = await dialSpdy(url, { protocols: ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] });
  assert.equal(protocol, 'v4.channel.k8s.io');
  const c = await openCommandStreams(session, protocol, all);
  c.stdin!.end('hello spdy');
  const [out, err, outcome] = await Promise.all([text(c.stdout!), text(c.stderr!), c.outcome]);
  assert.equal(out, 'hello spdy');
  assert.equal(err, 'to stderr\n');
  assert.deepEqual(outcome, JSON.parse(JSON.stringify(exit3)));
  await session.closed;
});

test('v4: success is written as a Success status; v3: nothing on success, the message on failure', async t => {
  const { url } = await server(t, { streams: { stdin: false, stdout: true, stderr: false, tty: false } }, c => { c.stdout!.write('ok'); c.finish(undefined); });
  let { session, protocol } = await dialSpdy(url, { protocols: ['v4.channel.k8s.io'] });
  let c = await openCommandStreams(session, protocol, { stdin: false, stdout: true, stderr: false, tty: false });
  assert.equal(await text(c.stdout!), 'ok');
  assert.deepEqual(await c.outcome, { metadata: {}, status: 'Success' });

  ({ session, protocol } = await dialSpdy(url, { protocols: ['v3.channel.k8s.io'] }));
  c = await openCommandStreams(session, protocol, { stdin: false, stdout: true, stderr: false, tty: false });
  assert.equal(await c.outcome, undefined);

  const failing = await server(t, { streams: { stdin: false, stdout: true, stderr: false, tty: false } }, c2 => c2.finish(exit3));
  ({ session, protocol } = await dialSpdy(failing.url, { protocols: ['v3.channel.k8s.io'] }));
  c = await openCommandStreams(session, protocol, { stdin: false, stdout: true, stderr: false, tty: false });
  assert.equal(await c.outcome, 'command terminated with non-zero exit code: exit status 3');
});

test('with a TTY, stderr is not waited for and resize messages arrive as sizes', async t => {
  const sizes: TerminalSize[] = [];
  const { url } = await server(t, { streams: { stdin: true, stdout: true, stderr: true, tty: true } }, async c => {
    assert.equal(c.stderr, undefined);
    for await (const s of c.resize!) { sizes.push(s); if (sizes.length === 2) break; }
    c.finish(undefined);
  });
  const { session, protocol } = await dialSpdy(url, { protocols: ['v4.channel.k8s.io'] });
  const c = await openCommandStreams(session, protocol, { stdin: true, stdout: true, stderr: true, tty: true });
  c.resize!({ width: 80, height: 24 });
  c.resize!({ width: 120, height: 40 });
  assert.deepEqual(await c.outcome, { metadata: {}, status: 'Success' });
  assert.deepEqual(sizes, [{ width: 80, height: 24 }, { width: 120, height: 40 }]);
});

test('refusals: no common version (403 with the accepted ones), no version, no upgrade headers', async t => {
  const { url, failures } = await server(t, { streams: all }, () => assert.fail('no command'));
  const refused = await dialSpdy(url, { protocols: ["v9.channel.k8s.io"] }).then(() => assert.fail("upgraded"), e => e as SpdyDialError);
  assert.ok(refused instanceof SpdyDialError);
  assert.equal(refused.statusCode, 403);
  assert.equal(refused.body, 'unable to upgrade: unable to negotiate protocol: client supports [v9.channel.k8s.io], server accepts [v5.channel.k8s.io v4.channel.k8s.io v3.channel.k8s.io v2.channel.k8s.io channel.k8s.io]\n');
  const none = await dialSpdy(url, { protocols: [] }).then(() => assert.fail("upgraded"), e => e as SpdyDialError);
  assert.equal(none.statusCode, 400);
  assert.match(none.body, /X-Stream-Protocol-Version is required/);
  const raw = await rawUpgrade(url, 'Upgrade: websocket\r\nConnection: Upgrade\r\nX-Stream-Protocol-Version: v4.channel.k8s.io');
  assert.match(raw, /^HTTP\/1.1 400 Bad Request\r\n[^]*unable to upgrade: missing upgrade headers in request/);
  assert.equal(failures.length, 3);
});

test('a client that does not open the streams asked for is disconnected after the timeout', async t => {
  const { url, failures } = await server(t, { streams: all, streamCreationTimeoutMs: 200 }, () => assert.fail('no command'));
  const { session } = await dialSpdy(url, { protocols: ['v4.channel.k8s.io'] });
  await session.openStream({ streamtype: ['error'] });
  await session.closed;
  assert.deepEqual(failures.map(f => f.message), ['timed out waiting for client to create streams']);
});

test('resize messages are cut at object boundaries, however they are chunked', async () => {
  const chunks = ['{"Width":1', '0,"Height":2}\n{"Wid', 'th":3,"Height":4}{"width":5,"height":6,"x":"}"}'];
  const got: TerminalSize[] = [];
  for await (const s of terminalSizes((async function* () { yield* chunks; })())) got.push(s);
  assert.deepEqual(got, [{ width: 10, height: 2 }, { width: 3, height: 4 }, { width: 5, height: 6 }]);
});

function text(s: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.once('end', () => resolve(Buffer.concat(chunks).toString()));
    s.once('error', reject);
  });
}

async function rawUpgrade(url: string, headers: string): Promise<string> {
  const u = new URL(url);
  const net = await import('node:net');
  const sock = net.connect(Number(u.port), u.hostname);
  sock.write(`POST ${u.pathname} HTTP/1.1\r\nHost: x\r\n${headers}\r\n\r\n`);
  return text(sock);
}
