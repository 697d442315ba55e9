import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ensurePki, issueClientCert, issueServingCert } from '../../../src/apiserver/cluster-certs.ts';
import type { Pki } from '../../../src/apiserver/cluster-certs.ts';
import { issueCert } from '../../../src/pki/certs.ts';
import { authenticateClientCert, createClientCertAuthenticator } from '../../../src/apiserver/authn/client-cert.ts';
import type { ClientCertAuthenticator } from '../../../src/apiserver/authn/client-cert.ts';

let dir: string;
let pki: Pki;
let other: Pki; // a second, unrelated cluster
const servers: Array<{ close(): unknown }> = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'client-cert-'));
  pki = await ensurePki(join(dir, 'a'), { hosts: [], ips: [] });
  other = await ensurePki(join(dir, 'b'), { hosts: [], ips: [] });
});

after(async () => {
  for (const s of servers) s.close();
  await rm(dir, { recursive: true, force: true });
});

function answer(authn: ClientCertAuthenticator, socket: TLSSocket, connection: object, res: { writeHead(code: number, h: Record<string, string>): unknown; end(body: string): unknown }) {
  const user = authn(socket, connection);
  res.writeHead(user ? 200 : 401, { 'content-type': 'application/json' });
  res.end(JSON.stringify(user ?? { reason: 'Unauthorized' }));
}

/** an HTTP/1.1 TLS server as the API server configures it: asks for a certificate, does not insist */
async function httpsServer(ca: string | string[], authn: ClientCertAuthenticator = authenticateClientCert): Promise<number> {
  const server = https.createServer({ cert: pki.serverCert, key: pki.serverKey, ca, requestCert: true, rejectUnauthorized: false },
    (req: IncomingMessage, res: ServerResponse) => answer(authn, req.socket as TLSSocket, req.socket, res));
  servers.push(server);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function http1Get(port: number, client: { cert?: string; key?: string }): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path: '/', ca: pki.caCert, ...client, agent: false }, res => {
      let data = '';
      res.on('data', c => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('HTTP/1.1: the admin certificate authenticates as kubernetes-admin in system:masters', async () => {
  const port = await httpsServer(pki.caCert);
  assert.deepEqual(await http1Get(port, { cert: pki.adminCert, key: pki.adminKey }),
    { status: 200, body: { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } });
});

test('HTTP/1.1: no certificate, another CA\'s certificate, a serving or an expired certificate are not users', async () => {
  const port = await httpsServer(pki.caCert);
  assert.equal((await http1Get(port, {})).status, 401, 'no certificate');
  assert.equal((await http1Get(port, { cert: other.adminCert, key: other.adminKey })).status, 401, 'another CA');
  const serving = await issueServingCert(pki, { commonName: 'kubernetes-admin', hosts: ['x'] });
  assert.equal((await http1Get(port, { cert: serving.cert, key: serving.key })).status, 401, 'serverAuth only, not clientAuth');
  const expired = await issueCert({ cert: pki.caCert, key: pki.caKey }, { commonName: 'old', days: -1, usage: 'client' });
  assert.equal((await http1Get(port, { cert: expired.cert, key: expired.key })).status, 401, 'expired');
});

test('HTTP/1.1: several O values become several groups', async () => {
  const port = await httpsServer(pki.caCert);
  const node = await issueClientCert(pki, { commonName: 'system:node:n1', organizations: ['system:nodes', 'ops', 'system:authenticated'] });
  assert.deepEqual((await http1Get(port, node)).body, { name: 'system:node:n1', groups: ['system:nodes', 'ops', 'system:authenticated'] });
});

test('a server that trusts further CAs still takes users only from the cluster CA when told which it is', async () => {
  const both = [pki.caCert, other.caCert];
  const loose = await httpsServer(both);
  assert.equal((await http1Get(loose, { cert: other.adminCert, key: other.adminKey })).status, 200, 'TLS alone accepts it');
  const strict = await httpsServer(both, createClientCertAuthenticator({ caCert: pki.caCert }));
  assert.equal((await http1Get(strict, { cert: other.adminCert, key: other.adminKey })).status, 401);
  assert.equal((await http1Get(strict, { cert: pki.adminCert, key: pki.adminKey })).status, 200);
});

test('HTTP/2: users per session, read once for many streams', async () => {
  let reads = 0;
  const counting = createClientCertAuthenticator({ caCert: pki.caCert });
  const authn: ClientCertAuthenticator = (socket, connection) => {
    const orig = socket.getPeerCertificate.bind(socket);
    // count certificate reads through the compat layer's socket proxy
    const spy = new Proxy(socket, { get: (t, p) => p === 'getPeerCertificate' ? (...a: [boolean?]) => { reads++; return orig(...(a as [true])); } : Reflect.get(t, p) });
    return counting(spy as TLSSocket, connection);
  };
  const server = http2.createSecureServer({ allowHTTP1: true, cert: pki.serverCert, key: pki.serverKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: false });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    answer(authn, req.socket as TLSSocket, req.stream.session ?? req.socket, res);
  });
  servers.push(server);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  const get = async (client: { cert?: string; key?: string }, n: number) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca: pki.caCert, ...client });
    try {
      const one = () => new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const s = session.request({ ':path': '/' });
        let status = 0;
        let data = '';
        s.on('response', h => { status = Number(h[':status']); });
        s.on('data', c => { data += c; });
        s.on('end', () => resolve({ status, body: JSON.parse(data) }));
        s.on('error', reject);
      });
      const out = [];
      for (let i = 0; i < n; i++) out.push(await one());
      return out;
    } finally {
      session.close();
    }
  };
  const admin = await get({ cert: pki.adminCert, key: pki.adminKey }, 3);
  assert.deepEqual(admin.map(r => r.status), [200, 200, 200]);
  assert.deepEqual(admin[0]!.body, { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  assert.ok(reads >= 1 && reads <= 2, `certificate read once per session, not per stream (${reads} reads)`);
  assert.deepEqual((await get({}, 2)).map(r => r.status), [401, 401]);
  assert.deepEqual((await get({ cert: other.adminCert, key: other.adminKey }, 1)).map(r => r.status), [401]);
});

test('HTTP/2: a session outliving its certificate loses the identity at the next request', async () => {
  let clock = Date.now();
  const authn = createClientCertAuthenticator({ caCert: pki.caCert, now: () => clock });
  const server = http2.createSecureServer({ cert: pki.serverCert, key: pki.serverKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: false });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => answer(authn, req.socket as TLSSocket, req.stream.session ?? req.socket, res));
  servers.push(server);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const jane = await issueCert({ cert: pki.caCert, key: pki.caKey }, { commonName: 'jane', days: 1, usage: 'client' });
  const session = http2.connect(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, { ca: pki.caCert, cert: jane.cert, key: jane.key });
  const status = () => new Promise<number>((resolve, reject) => {
    const s = session.request({ ':path': '/' });
    s.on('response', h => { resolve(Number(h[':status'])); s.resume(); });
    s.on('error', reject);
  });
  try {
    assert.equal(await status(), 200);
    clock += 2 * 24 * 3600_000;
    assert.equal(await status(), 401, 'expired since the session opened');
    clock -= 2 * 24 * 3600_000;
    assert.equal(await status(), 200, 'checked per request, not once');
  } finally {
    session.close();
  }
});
