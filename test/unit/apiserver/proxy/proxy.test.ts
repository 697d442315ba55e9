// The proxy subresources: how the name, path and headers are read (pure), then services/proxy
// and pods/proxy through a real API server in this process to a real HTTP server of the test,
// listening on this machine's own (non-loopback) address, as an endpoint or pod IP would be.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import tls from 'node:tls';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { silentLogger } from '../../../../src/api/log.ts';
import { requires } from '../../../support/requires.ts';
import { startServer, type RunningServer } from '../../../../src/apiserver/start.ts';
import { isProxyableIP, splitSchemeNamePort } from '../../../../src/registry/subresources/proxy-id.ts';
import { candidates } from '../../../../src/registry/subresources/services-proxy.ts';
import { goDialError, proxiedPath, splitRequestTarget } from '../../../../src/apiserver/proxy/target.ts';
import { isUpgrade, requestHeaders, responseHeaders, rewriteLocation } from '../../../../src/apiserver/proxy/headers.ts';
import { rawClient, type RawClient } from '../../../e2e/support/raw-client.ts';

test('names: name, name:port, scheme:name:port; anything else is refused', () => {
  assert.deepEqual(splitSchemeNamePort('web'), { scheme: '', name: 'web', port: '' });
  assert.deepEqual(splitSchemeNamePort('web:8080'), { scheme: '', name: 'web', port: '8080' });
  assert.deepEqual(splitSchemeNamePort('https:web:8443'), { scheme: 'https', name: 'web', port: '8443' });
  assert.deepEqual(splitSchemeNamePort('http:web:'), { scheme: 'http', name: 'web', port: '' });
  for (const bad of ['ftp:web:21', ':8080', 'a:b:c:d', '']) assert.equal(splitSchemeNamePort(bad), undefined, bad);
});

test('only global unicast addresses are dialled', () => {
  for (const ok of ['10.42.0.7', '192.0.2.2', '2001:db8::1']) assert.equal(isProxyableIP(ok), true, ok);
  for (const no of ['', '127.0.0.1', '0.0.0.0', '169.254.1.1', '224.0.0.1', '::1', 'fe80::1', '::ffff:127.0.0.1', 'web']) assert.equal(isProxyableIP(no), false, no);
});

test('paths: decoded, cleaned, trailing slash kept, escaped as Go escapes them; the query verbatim', () => {
  assert.equal(proxiedPath([], false), '');
  assert.equal(proxiedPath([], true), '/');
  assert.equal(proxiedPath(['a', 'b'], true), '/a/b/');
  assert.equal(proxiedPath(['a', '..', '..', 'b', '.', 'c d'], false), '/b/c%20d');
  assert.equal(proxiedPath(['x/y', 'é?'], false), '/x/y/%C3%A9%3F');
  assert.deepEqual(splitRequestTarget('/api/v1/nodes/n/proxy/x?a=1&b=%20+'), { path: '/api/v1/nodes/n/proxy/x', rawQuery: 'a=1&b=%20+' });
  assert.deepEqual(splitRequestTarget('https://h:6443/p?q'), { path: '/p', rawQuery: 'q' });
  assert.equal(goDialError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), '10.0.0.5:80'), 'dial tcp 10.0.0.5:80: connect: connection refused');
});

test('headers: hop-by-hop and credentials stay here; upgrades keep their handshake; forwarding recorded', () => {
  const incoming = {
    ':authority': 'api:6443', connection: 'keep-alive, x-private', 'keep-alive': '5', 'x-private': '1', te: 'trailers, gzip',
    authorization: 'Bearer t', 'impersonate-user': 'u', accept: 'text/plain', 'x-forwarded-for': '10.0.0.1',
  };
  const out = requestHeaders(incoming, { clientIp: '10.0.0.9', prefix: '/api/v1/nodes/n/proxy', path: '/stats' }, false);
  assert.deepEqual(out, { accept: 'text/plain', te: 'trailers', host: 'api:6443', 'x-forwarded-for': '10.0.0.1, 10.0.0.9', 'x-forwarded-uri': '/api/v1/nodes/n/proxy/stats' });
  const up = { host: 'api', connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': 'k' };
  assert.equal(isUpgrade(up), true);
  assert.equal(isUpgrade({ upgrade: 'websocket' }), false);
  const upOut = requestHeaders(up, { prefix: '/p', path: '/' }, true);
  assert.equal(upOut.connection, 'Upgrade');
  assert.equal(upOut.upgrade, 'websocket');
  assert.equal(upOut['sec-websocket-key'], 'k');
  const back = responseHeaders({ 'transfer-encoding': 'chunked', connection: 'close', 'content-type': 'text/html', location: '/login' }, l => `/prefix${l}`);
  assert.deepEqual(back, { 'content-type': 'text/html', location: '/prefix/login' });
});

test('redirects to the backend come back through the proxy; others are left alone', () => {
  const prefix = '/api/v1/namespaces/ns/services/web/proxy';
  assert.equal(rewriteLocation('/login?x=1', '10.0.0.5:80', 'api:6443', prefix), `${prefix}/login?x=1`);
  assert.equal(rewriteLocation('http://10.0.0.5:80/a/', '10.0.0.5:80', 'api:6443', prefix), `${prefix}/a/`);
  assert.equal(rewriteLocation(`https://api:6443${prefix}/b`, '10.0.0.5:80', 'api:6443', prefix), `https://api:6443${prefix}/b`);
  assert.equal(rewriteLocation('https://example.com/x', '10.0.0.5:80', 'api:6443', prefix), 'https://example.com/x');
  assert.equal(rewriteLocation('relative/x', '10.0.0.5:80', 'api:6443', prefix), 'relative/x');
});

test('endpoints: ready (or unknown) addresses of the named port only, from a random start', () => {
  const slices = [
    { metadata: {}, addressType: 'IPv4', ports: [{ name: 'http', port: 80 }], endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: false } }, { addresses: ['10.0.0.2'], conditions: {} }, { addresses: ['10.0.0.4'] }] },
    { metadata: {}, addressType: 'IPv4', ports: [{ name: 'metrics', port: 9090 }], endpoints: [{ addresses: ['10.0.0.3'] }] },
    { metadata: {}, addressType: 'FQDN', ports: [{ name: 'http', port: 80 }], endpoints: [{ addresses: ['example.com'] }] },
  ];
  assert.deepEqual(candidates(slices, 'http', () => 0).map(c => c.host), ['10.0.0.2', '10.0.0.4']);
  assert.deepEqual(candidates(slices, 'http', () => 0.6).map(c => c.host), ['10.0.0.4', '10.0.0.2']);
  assert.deepEqual(candidates(slices, 'metrics').map(c => `${c.host}:${c.port}`), ['10.0.0.3:9090']);
  assert.deepEqual(candidates(slices, ''), []);
});

// ---- through a real server

const hostIp = Object.values(networkInterfaces()).flat().find(i => i && i.family === 'IPv4' && !i.internal)?.address;
let dir: string;
let server: RunningServer;
let api: RawClient;
let backend: http.Server;
let backendPort: number;
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

before(async () => {
  if (!hostIp) return;
  dir = mkdtempSync(join(tmpdir(), 'proxy-unit-'));
  server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  api = rawClient(server.kubeconfigPath);
  // what the service account controller (not running here) makes: pods need their account
  assert.equal((await api.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: JSON.stringify({ metadata: { name: 'default' } }) })).status, 201);
  backend = http.createServer((req, res) => {
    let body = '';
    req.on('data', d => { body += d; });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/redirect') { res.writeHead(302, { location: '/elsewhere' }).end(); return; }
      if (req.url === '/page') { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<a href="/next">next</a>'); return; }
      res.writeHead(200, { 'content-type': 'text/plain', 'x-backend': 'yes', connection: 'keep-alive' }).end(`${req.method} ${req.url} ${body}`);
    });
  });
  // an echo protocol: after the 101, every byte comes back
  backend.on('upgrade', (req, socket) => {
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${req.headers.upgrade}\r\nConnection: Upgrade\r\n\r\n`);
    socket.pipe(socket);
  });
  await new Promise<void>(r => backend.listen(0, hostIp, r));
  backendPort = (backend.address() as AddressInfo).port;
  const post = (path: string, body: unknown) => api.request('POST', path, { body: JSON.stringify(body) });
  assert.equal((await post('/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { ports: [{ name: 'http', port: 80, targetPort: backendPort }] } })).status, 201);
  // the endpoint names its pod, whose IP it is (kube-apiserver dials no other address)
  assert.equal((await post('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
    metadata: { name: 'web-1', labels: { 'kubernetes.io/service-name': 'web' } }, addressType: 'IPv4',
    ports: [{ name: 'http', port: backendPort }], endpoints: [{ addresses: [hostIp], conditions: { ready: true }, targetRef: { kind: 'Pod', namespace: 'default', name: 'p' } }],
  })).status, 201);
  // an endpoint naming no pod, or a pod without its IP, is never dialled
  assert.equal((await post('/api/v1/namespaces/default/services', { metadata: { name: 'manual' }, spec: { ports: [{ name: 'http', port: 80 }] } })).status, 201);
  assert.equal((await post('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
    metadata: { name: 'manual-1', labels: { 'kubernetes.io/service-name': 'manual' } }, addressType: 'IPv4',
    ports: [{ name: 'http', port: backendPort }], endpoints: [{ addresses: [hostIp] }, { addresses: ['10.9.9.9'], targetRef: { kind: 'Pod', namespace: 'default', name: 'p' } }],
  })).status, 201);
  assert.equal((await post('/api/v1/namespaces/default/services', { metadata: { name: 'empty' }, spec: { ports: [{ name: 'http', port: 80 }] } })).status, 201);
  assert.equal((await post('/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: backendPort }] }] } })).status, 201);
  assert.equal((await post('/api/v1/namespaces/default/pods', { metadata: { name: 'noip' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status, 201);
  const st = await api.request('PATCH', '/api/v1/namespaces/default/pods/p/status', { body: JSON.stringify({ status: { podIP: hostIp, podIPs: [{ ip: hostIp }] } }), headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(st.status, 200, st.body);
});

after(async () => {
  if (!hostIp) return;
  backend.closeAllConnections();
  backend.close();
  await server.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const svc = '/api/v1/namespaces/default/services';

test('services/proxy: methods, path and query reach a ready endpoint; answers, redirects and HTML links come back through the proxy', requires(!hostIp && 'no non-loopback IPv4 address'), async () => {
  const got = await api.request('GET', `${svc}/web:http/proxy/a/b/?x=1&y=%20`);
  assert.equal(got.status, 200, got.body);
  assert.equal(got.body, 'GET /a/b/?x=1&y=%20 ');
  assert.equal(got.headers['x-backend'], 'yes');
  const sent = seen.at(-1)!;
  assert.equal(sent.headers['x-forwarded-uri'], '/api/v1/namespaces/default/services/web:http/proxy/a/b/');
  assert.equal(sent.headers['x-forwarded-for'], '127.0.0.1');
  for (const [method, name] of [['POST', 'web:http'], ['PUT', 'http:web:80'], ['PATCH', 'web:80'], ['DELETE', 'web:http']] as const) {
    const r = await api.request(method, `${svc}/${name}/proxy/m`, { body: 'payload', headers: { 'content-type': 'text/plain' } });
    assert.equal(r.status, 200, `${method} ${r.body}`);
    assert.equal(r.body, `${method} /m payload`);
  }
  assert.equal((await api.request('GET', `${svc}/web:http/proxy`)).body, 'GET / ');
  const big = Buffer.alloc(3 * 1024 * 1024, 'x');
  const bigEcho = await api.request('PUT', `${svc}/web:http/proxy/big`, { body: big, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(bigEcho.body.length, 'PUT /big '.length + big.length, 'a large body streams through both ways');
  assert.equal((await api.request('OPTIONS', `${svc}/web:http/proxy/o`)).body, 'OPTIONS /o ');
  const head = await api.request('HEAD', `${svc}/web:http/proxy/h`);
  assert.equal(head.status, 200);
  assert.equal(head.headers['x-backend'], 'yes');
  assert.equal(seen.at(-1)!.method, 'HEAD');
  assert.equal((await api.request('GET', `${svc}/web:http/proxy?path=/via/option`)).body, 'GET /via/option?path=/via/option ');
  const redirect = await api.request('GET', `${svc}/web:http/proxy/redirect`);
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.location, '/api/v1/namespaces/default/services/web:http/proxy/elsewhere');
  const page = await api.request('GET', `${svc}/web:http/proxy/page`);
  assert.equal(page.body, '<a href="/api/v1/namespaces/default/services/web:http/proxy/next">next</a>');
  assert.equal(page.headers['content-length'], String(page.body.length));
});

test('services/proxy refusals in kube-apiserver\'s words', requires(!hostIp && 'no non-loopback IPv4 address'), async () => {
  const none = await api.request('GET', `${svc}/empty/proxy/`);
  assert.equal(none.status, 503);
  assert.equal(none.json().message, 'no endpoints available for service "empty"');
  // a named port must be named: the unnamed port the bare name asks for has no endpoints
  assert.equal((await api.request('GET', `${svc}/web/proxy/`)).json().message, 'no endpoints available for service "web"');
  const manual = await api.request('GET', `${svc}/http:manual:http/proxy/`);
  assert.equal(manual.status, 503);
  assert.equal(manual.json().message, 'no endpoints available for service "http:manual:http"');
  const port = await api.request('GET', `${svc}/web:81/proxy/`);
  assert.equal(port.status, 503);
  assert.equal(port.json().message, 'no service port 81 found for service "web"');
  const https = await api.request('GET', `${svc}/https:web:80/proxy/`);
  assert.equal(https.status, 503, 'a TLS handshake with a plain server fails');
  assert.match(https.json().message, /^error trying to reach service: /);
  assert.equal((await api.request('GET', `${svc}/ftp:web:80/proxy/`)).json().message, 'invalid service request "ftp:web:80"');
  assert.equal((await api.request('GET', `${svc}/missing/proxy/`)).status, 404);
});

test('pods/proxy: the pod IP at its first declared port; a pod without an address is refused; a closed port is a 503', requires(!hostIp && 'no non-loopback IPv4 address'), async () => {
  const pods = '/api/v1/namespaces/default/pods';
  const got = await api.request('GET', `${pods}/p/proxy/hello?q=1`);
  assert.equal(got.status, 200, got.body);
  assert.equal(got.body, 'GET /hello?q=1 ');
  const noip = await api.request('GET', `${pods}/noip/proxy/`);
  assert.equal(noip.status, 400);
  assert.equal(noip.json().message, 'address not allowed');
  const closed = await api.request('GET', `${pods}/p:1/proxy/`);
  assert.equal(closed.status, 503);
  assert.equal(closed.json().message, `error trying to reach service: dial tcp ${hostIp}:1: connect: connection refused`);
  assert.equal((await api.request('GET', `${pods}/p/status/extra`)).status, 404, 'only proxies take a path');
  assert.equal((await api.request('GET', '/api/v1/pods/p/proxy/')).status, 404, 'a pod is named in its namespace');
});

test('an upgrade is relayed both ways after the backend\'s 101', requires(!hostIp && 'no non-loopback IPv4 address'), async () => {
  const kc = parse(readFileSync(server.kubeconfigPath, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const url = new URL(kc.clusters[0].cluster.server);
  const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']), ALPNProtocols: ['http/1.1'] });
  await new Promise(r => socket.once('secureConnect', r));
  socket.write(`GET ${svc}/web:http/proxy/ws HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n`);
  let received = '';
  socket.on('data', d => { received += d; });
  const until = async (pred: () => boolean) => { for (let i = 0; i < 200 && !pred(); i++) await new Promise(r => setTimeout(r, 10)); assert.ok(pred(), received); };
  await until(() => received.includes('\r\n\r\n'));
  assert.match(received, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  socket.write('ping-pong');
  await until(() => received.endsWith('ping-pong'));
  socket.destroy();
});
