// Port forwarding over SPDY and over SPDY tunnelled in WebSocket, server end against the client
// end: stream pairs by request id, several at once, failures on the error stream, bad headers.

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { acceptSpdyPortForward } from '../../../../src/streaming/spdy/portforward.ts';
import { acceptTunnelledPortForward, acceptTunnelledPortForwardUpgrade, webSocketBytes } from '../../../../src/streaming/spdy/tunnel.ts';
import { dialSpdy, openForwardedConnection } from '../../../../src/streaming/spdy/client.ts';
import { SpdySession } from '../../../../src/streaming/spdy/session.ts';
import type { PortForwardStreams } from '../../../../src/streaming/streams.ts';

// the fake pod: port 80 echoes in upper case, any other port fails
async function serve(pf: PortForwardStreams, seen: string[]): Promise<void> {
  for await (const c of pf.connections) {
    seen.push(`${c.requestId}:${c.port}`);
    if (c.port !== 80) { c.fail(`error forwarding port ${c.port} to pod p: connection refused`); continue; }
    c.data.on('data', (b: Buffer) => c.data.write(b.toString().toUpperCase()));
    c.data.on('end', () => c.data.end());
  }
}

async function server(t: TestContext): Promise<{ base: string; seen: string[]; failures: Error[] }> {
  const seen: string[] = [];
  const failures: Error[] = [];
  const srv = http.createServer();
  srv.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    const accepted = String(req.headers.upgrade).toLowerCase() === 'websocket'
      ? acceptTunnelledPortForwardUpgrade(req, socket, head, { streamCreationTimeoutMs: 300 })
      : Promise.resolve().then(() => acceptSpdyPortForward(req, socket, head, { streamCreationTimeoutMs: 300 }));
    accepted.then(pf => serve(pf, seen), (e: Error) => failures.push(e));
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  return { base: `127.0.0.1:${(srv.address() as import('node:net').AddressInfo).port}`, seen, failures };
}

async function exchange(session: SpdySession, port: number, id: string, text: string): Promise<{ reply: string; error: string }> {
  const { data, error } = await openForwardedConnection(session, port, id);
  data.end(text);
  const chunks: Buffer[] = [];
  data.on('data', (c: Buffer) => chunks.push(c));
  await once(data, 'end');
  return { reply: Buffer.concat(chunks).toString(), error: await error };
}

test('SPDY: each pair of streams is one connection; several at once; failures reported on the pair', async t => {
  const { base, seen } = await server(t);
  const { session, protocol } = await dialSpdy(`http://${base}/portforward`, { protocols: ['portforward.k8s.io'] });
  assert.equal(protocol, 'portforward.k8s.io');
  const results = await Promise.all([exchange(session, 80, '0', 'one'), exchange(session, 80, '1', 'two'), exchange(session, 81, '2', 'three')]);
  assert.deepEqual(results, [
    { reply: 'ONE', error: '' },
    { reply: 'TWO', error: '' },
    { reply: '', error: 'error forwarding port 81 to pod p: connection refused' },
  ]);
  assert.deepEqual(seen.sort(), ['0:80', '1:80', '2:81']);
  await session.close();
});

test('SPDY: streams with a bad port or type are reset; a lone stream times out with a message', async t => {
  const { base } = await server(t);
  const { session } = await dialSpdy(`http://${base}/portforward`, { protocols: ['portforward.k8s.io'] });
  await assert.rejects(session.openStream({ streamtype: ['data'], port: ['0'], requestid: ['1'] }), /RST_STREAM status 5/);
  await assert.rejects(session.openStream({ streamtype: ['data'], port: ['http'], requestid: ['1'] }), /RST_STREAM/);
  await assert.rejects(session.openStream({ streamtype: ['stdin'], port: ['80'], requestid: ['1'] }), /RST_STREAM/);
  const lone = await session.openStream({ streamtype: ['error'], port: ['80'], requestid: ['7'] }, { fin: true });
  const chunks: Buffer[] = [];
  for await (const c of lone) chunks.push(c as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), '(request=7) timed out waiting for streams');
  await session.close();
});

test('SPDY: refused without the version header; only portforward.k8s.io is spoken', async t => {
  const { base, failures } = await server(t);
  const e = await dialSpdy(`http://${base}/portforward`, { protocols: ['v4.channel.k8s.io'] }).then(() => assert.fail('upgraded'), (err: { statusCode: number }) => err);
  assert.equal(e.statusCode, 403);
  assert.equal(failures.length, 1);
});

test('SPDY in WebSocket: the upgrade answers with the prefixed subprotocol kubectl offered', async t => {
  const { base } = await server(t);
  const [res, socket] = await new Promise<[http.IncomingMessage, Duplex]>((resolve, reject) => {
    const req = http.request(`http://${base}/portforward`, { headers: {
      Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Protocol': 'SPDY/3.1+portforward.k8s.io',
    } });
    req.on('upgrade', (r, s) => resolve([r, s]));
    req.on('response', r => reject(new Error(`HTTP ${r.statusCode}`)));
    req.end();
  });
  assert.equal(res.statusCode, 101);
  assert.equal(res.headers['sec-websocket-protocol'], 'SPDY/3.1+portforward.k8s.io');
  assert.equal(res.headers['sec-websocket-accept'], 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  socket.destroy();
});

test('SPDY in WebSocket: binary messages carry the session both ways', async t => {
  // ws's client will not offer a subprotocol with '/', so this one connects without and the
  // server end is handed the WebSocket directly
  const seen: string[] = [];
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  t.after(() => { for (const c of wss.clients) c.terminate(); wss.close(); });
  wss.on('connection', ws => void serve(acceptTunnelledPortForward(ws), seen));
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as import('node:net').AddressInfo).port}/`);
  await once(ws, 'open');
  const session = new SpdySession(webSocketBytes(ws), { server: false });
  const big = 'x'.repeat(3 * 1024 * 1024);
  const results = await Promise.all([exchange(session, 80, '0', 'tunnelled'), exchange(session, 80, '1', big)]);
  assert.equal(results[0]!.reply, 'TUNNELLED');
  assert.equal(results[1]!.reply.length, big.length);
  assert.deepEqual(seen, ['0:80', '1:80']);
  await session.close();
});

test('SPDY in WebSocket: 400 when no tunnelled protocol is offered', async t => {
  const { base, failures } = await server(t);
  const ws = new WebSocket(`ws://${base}/portforward`, ['v4.channel.k8s.io']);
  ws.on('error', () => {});
  const [, res] = await once(ws, 'unexpected-response') as [unknown, http.IncomingMessage];
  assert.equal(res.statusCode, 400);
  const body: Buffer[] = [];
  for await (const c of res) body.push(c as Buffer);
  assert.equal(Buffer.concat(body).toString(), 'unable to upgrade: no tunneling spdy protocols provided\n');
  ws.terminate();
  assert.equal(failures.length, 1);
});

test('the protocol-table entries pick SPDY upgrades and tunnelled port-forward requests', async () => {
  const { spdyStreams, spdyTunnel } = await import('../../../../src/streaming/spdy/module.ts');
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as http.IncomingMessage;
  const spdy = req({ connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'v4.channel.k8s.io' });
  const tunnel = req({ connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'SPDY/3.1+portforward.k8s.io' });
  const channels = req({ connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io' });
  assert.deepEqual([spdy, tunnel, channels].map(r => [spdyStreams.acceptsCommand(r), spdyStreams.acceptsPortForward(r), spdyTunnel.acceptsCommand(r), spdyTunnel.acceptsPortForward(r)]),
    [[true, true, false, false], [false, false, false, true], [false, false, false, false]]);
});

test('SPDY: a connection idle longer than the idle timeout is closed with GOAWAY', async t => {
  const srv = http.createServer();
  srv.on('upgrade', (req, socket: Duplex, head: Buffer) => void acceptSpdyPortForward(req, socket, head, { idleTimeoutMs: 150 }));
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  const { session } = await dialSpdy(`http://127.0.0.1:${(srv.address() as import('node:net').AddressInfo).port}/`, { protocols: ['portforward.k8s.io'] });
  const started = performance.now();
  const [status] = await once(session, 'goaway') as [number];
  assert.equal(status, 0);
  await session.closed;
  assert.ok(performance.now() - started >= 100);
});
