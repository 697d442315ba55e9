// The HTTP/2 client when the server dies mid-request (kill -9): the request fails at once
// instead of waiting forever (its stream closes without an error, and its timeout goes with it),
// a watch is told it ended, and a request whose outcome is unknown is not sent again — a DELETE
// resent after the server acted would answer 404 for the caller's own delete. A connection that
// was never made is reported as ECONNREFUSED, so callers know the request never left.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { createServer, type AddressInfo } from 'node:net';
import { createCa, issueCert } from '../../../src/pki/certs.ts';
import { createClient } from '../../../src/client/rest.ts';

async function dyingServer() {
  const ca = await createCa('test-ca', 1);
  const cert = await issueCert(ca, { commonName: 'server', days: 1, usage: 'server', ips: ['127.0.0.1'] });
  const seen: string[] = [];
  // every request arrives, and then the process "dies": its connection is cut without an answer
  const server = http2.createSecureServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => setTimeout(() => res.stream.session?.socket.destroy(), 20));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const client = createClient({ server: `https://127.0.0.1:${port}`, ca: Buffer.from(ca.cert) }, { requestTimeoutMs: 60_000 });
  return { seen, client, close: () => { client.close(); server.close(); } };
}

test('a request whose connection dies before an answer fails at once, and is not sent again', async t => {
  const s = await dyingServer();
  t.after(() => s.close());
  for (const [method, call] of [['POST', () => s.client.create('/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' } })], ['DELETE', () => s.client.delete('/api/v1/namespaces/default/configmaps/a')], ['GET', () => s.client.get('/api/v1/namespaces/default/configmaps/a')]] as const) {
    const began = Date.now();
    await assert.rejects(call(), /the connection closed before a response/);
    assert.ok(Date.now() - began < 5000, `${method} settled after ${Date.now() - began} ms`);
  }
  assert.deepEqual(s.seen, ['POST /api/v1/namespaces/default/configmaps', 'DELETE /api/v1/namespaces/default/configmaps/a', 'GET /api/v1/namespaces/default/configmaps/a']);
});

test('a watch whose connection dies before its response is told it ended', async t => {
  const s = await dyingServer();
  t.after(() => s.close());
  const ended = await new Promise<Error | undefined>(resolve => s.client.watch('/api/v1/configmaps', undefined, () => {}, resolve));
  assert.match(String(ended), /the connection closed before a response/);
});

test('a server that is not there: ECONNREFUSED, the request surely not sent', async () => {
  const port = await new Promise<number>(r => { const l = createServer().listen(0, '127.0.0.1', () => { const p = (l.address() as AddressInfo).port; l.close(() => r(p)); }); });
  const client = createClient({ server: `https://127.0.0.1:${port}` });
  try {
    const err = await client.create('/api/v1/namespaces/default/configmaps', {}).then(() => undefined, e => e);
    const code = err?.code === 'ECONNREFUSED' ? err.code : err?.cause?.code;
    assert.equal(code, 'ECONNREFUSED', String(err));
  } finally {
    client.close();
  }
});
