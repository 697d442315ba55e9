// Issue 17's defects, each against a running server: every malformed request gets a prompt 4xx
// Status, nothing is written by it, and no reply carries JavaScript error text.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { parse } from 'yaml';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient, type RawResponse } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
const cms = '/api/v1/namespaces/default/configmaps';

// short connection and request timeouts, so that the limits below are seen in seconds
const servingArgs = ['--request-timeout=2s', '--idle-connection-timeout=1500ms', '--request-header-timeout=1s', '--http2-max-streams-per-connection=300'];
before(async () => { orch = await startOrch({ args: servingArgs }); c = rawClient(orch.kubeconfig); });
after(async () => { await orch.stop(); await orch.cleanup(); });

function assertStatus(r: RawResponse, code: number, reason: string, message?: string | RegExp): any {
  assert.equal(r.status, code, r.body);
  const s = r.json();
  assert.deepEqual([s.kind, s.status, s.code, s.reason], ['Status', 'Failure', code, reason], r.body);
  if (typeof message === 'string') assert.equal(s.message, message);
  else if (message) assert.match(s.message, message);
  assert.doesNotMatch(r.body, /TypeError|SyntaxError|RangeError|Cannot read properties|Maximum call stack/);
  return s;
}

/** a request that must be answered within a second */
async function prompt(method: string, path: string, opts?: Parameters<RawClient['request']>[2]): Promise<RawResponse> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${method} ${path}: no reply within 1 s`)), 1000); });
  try { return await Promise.race([c.request(method, path, opts), late]); } finally { clearTimeout(timer); }
}

const json = (v: unknown) => ({ body: JSON.stringify(v) });

async function makeConfigMap(name: string, data: Record<string, string> = { a: '1' }): Promise<any> {
  const r = await c.request('POST', cms, json({ metadata: { name }, data }));
  assert.equal(r.status, 201, r.body);
  return r.json();
}

test('1. a path that does not decode is a prompt 400, before authentication', async () => {
  for (const path of [`${cms}/%FF`, '/healthz/%FF', '/api/v1/namespaces/%E0%A4%A/pods']) {
    assertStatus(await prompt('GET', path), 400, 'BadRequest', /invalid URL escape/);
    assertStatus(await prompt('GET', path, { anonymous: true }), 400, 'BadRequest', /invalid URL escape/);
  }
});

test('2. JSON nested past 10,000 levels is a 400 with Go\'s message, in bodies and patches', async () => {
  await makeConfigMap('deep');
  const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  const goMessage = "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth";
  assertStatus(await prompt('POST', cms, { body: `{"metadata":{"name":"d2"},"x":${deep}}` }), 400, 'BadRequest', goMessage);
  for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
    assertStatus(await prompt('PATCH', `${cms}/deep`, { body: `{"x":${deep}}`, headers: { 'content-type': type } }), 400, 'BadRequest', goMessage);
  }
  // deeper than the server walks, short of Go's limit: refused too, never a 500
  const rev = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1 };
  const body = JSON.stringify(rev).replace(/}$/, `,"data":${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}}`);
  assertStatus(await prompt('POST', '/apis/apps/v1/namespaces/default/controllerrevisions', { body }), 400, 'BadRequest', /more than 500 levels deep/);
});

test('3. null where an object belongs is decoded as Go decodes it and validated: 422, not 500', async () => {
  const pod = (spec: unknown) => json({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nul' }, spec });
  const s = assertStatus(await prompt('POST', '/api/v1/namespaces/default/pods', pod({ containers: [null] })), 422, 'Invalid');
  assert.deepEqual(s.details.causes.map((x: any) => x.field), ['spec.containers[0].name', 'spec.containers[0].image']);
  assertStatus(await prompt('POST', '/api/v1/namespaces/default/pods', pod(null)), 422, 'Invalid', 'Pod "nul" is invalid: spec.containers: Required value');
  assertStatus(await prompt('POST', '/api/v1/namespaces/default/pods', pod({ containers: [{ name: 'c', image: 'i', env: [null], ports: [null] }], volumes: [null] })), 422, 'Invalid');
});

test('4. YAML tags: binary becomes text, values JSON cannot hold are a 400', async () => {
  const yaml = { 'content-type': 'application/yaml' };
  const r = await prompt('POST', cms, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yb\ndata:\n  a: !!binary aGVsbG8=\n', headers: yaml });
  assert.equal(r.status, 201, r.body);
  assert.equal(r.json().data.a, 'hello');
  assertStatus(await prompt('POST', cms, { body: 'metadata:\n  name: yn\ndata:\n  a: .nan\n', headers: yaml }), 400, 'BadRequest', 'error converting YAML to JSON: json: unsupported value: NaN');
});

test('5. ConfigMap and Secret data over 1 MiB are 422 on create and update', async () => {
  const big = 'x'.repeat(1024 * 1024 + 1);
  assertStatus(await prompt('POST', cms, json({ metadata: { name: 'big' }, data: { a: big } })), 422, 'Invalid', 'ConfigMap "big" is invalid: []: Too long: must have at most 1048576 bytes');
  const cm = await makeConfigMap('grows');
  assertStatus(await prompt('PUT', `${cms}/grows`, json({ ...cm, data: { a: big } })), 422, 'Invalid');
  const secrets = '/api/v1/namespaces/default/secrets';
  assertStatus(await prompt('POST', secrets, json({ metadata: { name: 'big' }, stringData: { a: big } })), 422, 'Invalid', 'Secret "big" is invalid: data: Too long: must have at most 1048576 bytes');
  assert.equal((await c.request('GET', `${cms}/big`)).status, 404);
  assert.equal((await c.request('GET', `${cms}/grows`)).json().data.a, '1');
});

test('6. a uid in a PUT body is a precondition (409); a patch may not change it (422)', async () => {
  const cm = await makeConfigMap('uid');
  const other = '00000000-0000-0000-0000-000000000000';
  assertStatus(await prompt('PUT', `${cms}/uid`, json({ ...cm, metadata: { ...cm.metadata, uid: other }, data: { a: '2' } })), 409, 'Conflict',
    `Operation cannot be fulfilled on configmaps "uid": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${other}, UID in object meta: ${cm.metadata.uid}`);
  assertStatus(await prompt('PATCH', `${cms}/uid`, { body: JSON.stringify({ metadata: { uid: other }, data: { a: '3' } }), headers: { 'content-type': 'application/merge-patch+json' } }),
    422, 'Invalid', `ConfigMap "uid" is invalid: metadata.uid: Invalid value: "${other}": field is immutable`);
  const now = (await c.request('GET', `${cms}/uid`)).json();
  assert.deepEqual([now.metadata.uid, now.data.a, now.metadata.resourceVersion], [cm.metadata.uid, '1', cm.metadata.resourceVersion]);
  // the right uid is no obstacle
  assert.equal((await prompt('PUT', `${cms}/uid`, json({ ...cm, data: { a: '4' } }))).status, 200);
});

test('7. escaped dot segments stay inside their segment: never another resource, never a name', async () => {
  assertStatus(await prompt('GET', '/api/v1/namespaces/bad/secrets/%2E%2E/%2E%2E/kube-system'), 400, 'BadRequest', 'Name parameter invalid: "..": may not be \'..\'');
  assertStatus(await prompt('GET', `${cms}/.`), 400, 'BadRequest', 'Name parameter invalid: ".": may not be \'.\'');
  assertStatus(await prompt('GET', `${cms}/a%2Fb`), 400, 'BadRequest', 'Name parameter invalid: "a/b": may not contain \'/\'');
  assertStatus(await prompt('GET', '/api/v1/namespaces/%2E%2E/configmaps'), 400, 'BadRequest', /^Namespace parameter invalid/);
  assertStatus(await prompt('DELETE', '/api/v1/namespaces/%2E%2E'), 400, 'BadRequest');
});

test('8. a DELETE body of another kind is a 400 and deletes nothing', async () => {
  await makeConfigMap('keep');
  assertStatus(await prompt('DELETE', `${cms}/keep`, json({ apiVersion: 'v1', kind: 'Pod' })), 400, 'BadRequest', 'decoded object cannot be converted to DeleteOptions');
  assertStatus(await prompt('DELETE', `${cms}/keep`, json({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 'soon' })), 400, 'BadRequest');
  assert.equal((await c.request('GET', `${cms}/keep`)).status, 200);
  assert.equal((await prompt('DELETE', `${cms}/keep`, json({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }))).status, 200);
});

test('10. PUT without a name, PUT and PATCH on a collection, a bad propagationPolicy, CONNECT', async () => {
  const cm = await makeConfigMap('named');
  assertStatus(await prompt('PUT', `${cms}/named`, json({ ...cm, metadata: { ...cm.metadata, name: undefined } })), 400, 'BadRequest', 'the name of the object () does not match the name on the URL (named)');
  assertStatus(await prompt('PUT', cms, json(cm)), 405, 'MethodNotAllowed');
  assertStatus(await prompt('PATCH', cms, { body: '{}', headers: { 'content-type': 'application/merge-patch+json' } }), 405, 'MethodNotAllowed');
  assertStatus(await prompt('DELETE', `${cms}/named?propagationPolicy=Sideways`), 422, 'Invalid',
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  assert.equal((await c.request('GET', `${cms}/named`)).status, 200);
  // a raw CONNECT over HTTP/1.1 gets an answer, not a dropped connection
  for (const target of ['/api/v1/namespaces', '127.0.0.1:443']) {
    const reply = await rawExchange(`CONNECT ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(reply, /^HTTP\/1\.1 405 /, reply);
    assert.match(reply, /"reason":"MethodNotAllowed"/);
  }
});

test('13. a patch that cannot be applied is a 4xx with a reason, never a 500 without one', async () => {
  await makeConfigMap('smp');
  const d = { metadata: { name: 'smpd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
  assert.equal((await c.request('POST', '/apis/apps/v1/namespaces/default/deployments', json(d))).status, 201);
  const r = await prompt('PATCH', '/apis/apps/v1/namespaces/default/deployments/smpd', { body: JSON.stringify({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
  assertStatus(r, 400, 'BadRequest', 'map: map[image:x] does not contain declared merge key: name');
});

/** one request written straight onto a TLS connection with the admin certificate; the reply as text */
function rawExchange(request: string): Promise<string> {
  const kc = parse(readFileSync(orch.kubeconfig, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: '127.0.0.1', port: orch.port, ALPNProtocols: ['http/1.1'],
      ca: b64(kc.clusters[0].cluster['certificate-authority-data']),
      cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']),
      servername: 'localhost',
    }, () => socket.write(request));
    let out = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no reply within 1 s; got ${JSON.stringify(out)}`)); }, 1000);
    socket.on('data', d => { out += d; });
    socket.on('end', () => { clearTimeout(timer); resolve(out); });
    socket.on('close', () => { clearTimeout(timer); resolve(out); });
    socket.on('error', err => { clearTimeout(timer); reject(err); });
  });
}

test('11. the server\'s data directory is 0700 and its database, WAL, keys and kubeconfig 0600', async () => {
  const { stat, readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const modeOf = async (p: string) => (await stat(p)).mode & 0o777;
  assert.equal(await modeOf(orch.dataDir), 0o700);
  for (const f of await readdir(orch.dataDir)) {
    const p = join(orch.dataDir, f);
    if ((await stat(p)).isFile()) assert.equal(await modeOf(p), 0o600, f);
  }
  assert.equal(await modeOf(join(orch.dataDir, 'orch.db-wal')), 0o600);
  for (const f of await readdir(join(orch.dataDir, 'pki'))) if (f.endsWith('.key')) assert.equal(await modeOf(join(orch.dataDir, 'pki', f)), 0o600, f);
});

test('9. query parameters parse as Kubernetes parses them', async () => {
  assertStatus(await prompt('GET', `${cms}?limit=99999999999999999999`), 400, 'BadRequest', /strconv\.ParseInt: parsing "99999999999999999999": value out of range/);
  assertStatus(await prompt('GET', `${cms}?resourceVersion=99999999999999999999999`), 400, 'BadRequest',
    'invalid resource version: resourceVersion: Invalid value: "99999999999999999999999": strconv.ParseUint: parsing "99999999999999999999999": value out of range');
  assertStatus(await prompt('GET', `${cms}?watch=1&resourceVersion=abc`), 422, 'Invalid', /^configmaps "" is invalid: resourceVersion: Invalid value: "abc"/);
  for (const v of ['true', 'false']) {
    assertStatus(await prompt('GET', `${cms}?sendInitialEvents=${v}`), 422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
  }
  // Kubernetes' selector parser reads "()" as the set holding the empty value: not an error
  assert.equal((await prompt('GET', `${cms}?labelSelector=${encodeURIComponent('a in ()')}`)).status, 200);
  // watch=True watches (the Python client sends it so)
  await makeConfigMap('watched');
  for (const v of ['True', 't', 'yes']) {
    const r = await c.request('GET', `${cms}?watch=${v}&timeoutSeconds=1&fieldSelector=metadata.name%3Dwatched`);
    assert.equal(r.status, 200, r.body);
    assert.equal(JSON.parse(r.body.split('\n')[0]!).type, 'ADDED', `watch=${v}: ${r.body}`);
  }
  const listed = await prompt('GET', `${cms}?watch=FALSE`);
  assert.equal(listed.json().kind, 'ConfigMapList');
});

test('HEAD over HTTP/2 ends its request: a shutdown does not wait for it', async () => {
  const http2 = await import('node:http2');
  const own = await startOrch();
  try {
    const kc = parse(readFileSync(own.kubeconfig, 'utf8'));
    const b64 = (s: string) => Buffer.from(s, 'base64');
    const session = http2.connect(own.url, { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']) });
    for (const path of ['/', '/api/v1/namespaces', '/api/v1/namespaces/default/configmaps/none']) {
      const status = await new Promise<number>((resolve, reject) => {
        const s = session.request({ ':method': 'HEAD', ':path': path }, { endStream: true });
        let code = 0;
        s.on('response', h => { code = Number(h[':status']); });
        s.on('close', () => resolve(code));
        s.on('error', reject);
      });
      assert.ok(status === 200 || status === 404, `${path}: ${status}`);
    }
    session.close();
    const started = Date.now();
    await own.stop();
    assert.ok(Date.now() - started < 10_000, `stopped after ${Date.now() - started} ms`);
  } finally {
    await own.cleanup();
  }
});

test('a write whose reply the client would refuse is a 406 before anything is written', async () => {
  await makeConfigMap('survives');
  const png = { headers: { accept: 'image/png' } };
  assertStatus(await prompt('DELETE', cms, png), 406, 'NotAcceptable');
  assertStatus(await prompt('DELETE', `${cms}/survives`, png), 406, 'NotAcceptable');
  assertStatus(await prompt('POST', cms, { body: JSON.stringify({ metadata: { name: 'never' } }), headers: { accept: 'image/png' } }), 406, 'NotAcceptable');
  assert.equal((await c.request('GET', `${cms}/survives`)).status, 200);
  assert.equal((await c.request('GET', `${cms}/never`)).status, 404);
  // a delete answered with a Status still says so when the client asked for a Table only
  const r = await prompt('DELETE', `${cms}/survives`, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1,application/json' } });
  assert.equal(r.status, 200, r.body);
});

test('apiVersion and kind that are not strings are a 400 in Go\'s words', async () => {
  assertStatus(await prompt('POST', cms, json({ kind: { '': null }, metadata: { name: 'k' } })), 400, 'BadRequest',
    "couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string");
  assertStatus(await prompt('POST', cms, json({ apiVersion: 1, metadata: { name: 'k' } })), 400, 'BadRequest',
    "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string");
});

/** the admin's TLS material from a kubeconfig */
function credentials(kubeconfig: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  const kc = parse(readFileSync(kubeconfig, 'utf8'));
  const b64 = (v: string) => Buffer.from(v, 'base64');
  return { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']) };
}

/** a TLS connection written by hand: what came back, and when (ms after opening) the server closed it */
function rawConnection(port = orch.port): { socket: tls.TLSSocket; received(): string; closed: Promise<number> } {
  const started = Date.now();
  const socket = tls.connect({ host: '127.0.0.1', port, ALPNProtocols: ['http/1.1'], servername: 'localhost', ...credentials(orch.kubeconfig) });
  let out = '';
  socket.on('data', d => { out += d; });
  socket.on('error', () => {});
  const closed = new Promise<number>(resolve => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, received: () => out, closed };
}

function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms); })]).finally(() => clearTimeout(timer));
}

test('limits: an object over etcd\'s 1.5 MiB is a 413 on create, update and patch, and nothing is written (both backends: test/conformance)', async () => {
  const revisions = '/apis/apps/v1/namespaces/default/controllerrevisions';
  const revision = (name: string, bytes: number) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1, data: { x: 'a'.repeat(bytes) } });
  const mib = 1024 * 1024;
  // megabytes take longer than the second `prompt` allows on a busy machine; still a bound
  const timed = (method: string, path: string, opts: Parameters<RawClient['request']>[2]) => withinMs(c.request(method, path, opts), 5000, `${method} ${path}`);
  assertStatus(await timed('POST', revisions, json(revision('huge', 1.6 * mib))), 413, 'RequestEntityTooLarge', 'etcdserver: request is too large');
  assert.equal((await c.request('GET', `${revisions}/huge`)).status, 404);
  const made = await c.request('POST', revisions, json(revision('grows', 1.4 * mib)));
  assert.equal(made.status, 201);
  const rv = made.json().metadata.resourceVersion;
  const merge = { 'content-type': 'application/merge-patch+json' };
  assertStatus(await timed('PATCH', `${revisions}/grows`, { body: JSON.stringify({ data: { y: 'b'.repeat(0.2 * mib) } }), headers: merge }), 413, 'RequestEntityTooLarge', 'etcdserver: request is too large');
  assertStatus(await timed('PUT', `${revisions}/grows`, json({ ...revision('grows', 1.6 * mib), metadata: { name: 'grows', resourceVersion: rv } })), 413, 'RequestEntityTooLarge');
  const now = (await c.request('GET', `${revisions}/grows`)).json();
  assert.deepEqual([now.metadata.resourceVersion, now.data.y], [rv, undefined]);
  // a body over 3 MiB is refused before it is decoded, in kube-apiserver's words
  assertStatus(await timed('POST', revisions, json(revision('body', 3.1 * mib))), 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
});

test('limits: request headers up to 1 MiB are served; past it a prompt 431 closes the connection and the server stays up', async () => {
  // a long label selector and a large header (a big bearer token, a long cookie) together, near the limit
  const selector = encodeURIComponent(`app notin (${Array.from({ length: 30_000 }, (_, i) => `v${i}`).join(',')})`);
  const near = rawConnection();
  near.socket.write(`GET ${cms}?labelSelector=${selector}&limit=1 HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(700_000)}\r\nConnection: close\r\n\r\n`);
  await withinMs(near.closed, 5000, 'the near-limit request');
  assert.match(near.received(), /^HTTP\/1\.1 200 /, near.received().slice(0, 300));
  const over = rawConnection();
  over.socket.write(`GET ${cms} HTTP/1.1\r\nHost: x\r\nX-Filler: ${'f'.repeat(1100 * 1024)}\r\n\r\n`);
  await withinMs(over.closed, 2000, 'the over-limit request');
  assert.match(over.received(), /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  // HTTP/2: the header list Kubernetes allows is announced; a large header is served
  const http2 = await import('node:http2');
  const session = http2.connect(orch.url, { ...credentials(orch.kubeconfig), maxSendHeaderBlockLength: 4 << 20 });
  try {
    const settings = await new Promise<import('node:http2').Settings>(resolve => session.once('remoteSettings', resolve));
    assert.deepEqual([settings.maxConcurrentStreams, settings.maxHeaderListSize, settings.maxFrameSize], [300, (1 << 20) + 320, 256 * 1024]);
    const code = await new Promise<number>((resolve, reject) => {
      // past Node's own 64 KiB; nghttp2 holds one field to 64 KiB once compressed, so two fields
      const s = session.request({ ':path': `${cms}?limit=1`, 'x-filler-1': 'f'.repeat(60_000), 'x-filler-2': 'f'.repeat(60_000) });
      s.on('response', h => resolve(Number(h[':status'])));
      s.on('error', reject);
      s.resume();
      s.end();
    });
    assert.equal(code, 200);
  } finally { session.close(); }
  assert.equal((await prompt('GET', cms)).status, 200);
});

test('limits: headers that dribble in, an idle connection and a stalled body are each ended on time', async () => {
  // slowloris: the header section never completes → 408 and closed after --request-header-timeout (1 s)
  const slow = rawConnection();
  slow.socket.write(`GET ${cms} HTTP/1.1\r\nHost: x\r\n`);
  // an idle keep-alive connection is closed after --idle-connection-timeout (1.5 s)
  const idle = rawConnection();
  idle.socket.write(`GET /version HTTP/1.1\r\nHost: x\r\n\r\n`);
  // a body that stalls: 504 Timeout after --request-timeout (2 s), in kube-apiserver's words
  const stalled = rawConnection();
  stalled.socket.write(`POST ${cms} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata":`);
  // the same over HTTP/2 with a shorter ?timeout= of the client's own; then the connection, idle, goes
  const http2 = await import('node:http2');
  const session = http2.connect(orch.url, credentials(orch.kubeconfig));
  const sessionClosed = new Promise<number>(resolve => session.once('close', () => resolve(Date.now())));
  try {
    const t0 = Date.now();
    const h2 = await new Promise<{ code: number; body: string }>((resolve, reject) => {
      const s = session.request({ ':method': 'POST', ':path': `${cms}?timeout=500ms`, 'content-type': 'application/json' });
      let code = 0, body = '';
      s.on('response', h => { code = Number(h[':status']); });
      s.on('data', d => { body += d; });
      s.on('close', () => resolve({ code, body }));
      s.on('error', reject);
      s.write('{"metadata":');
    });
    const answered = Date.now() - t0;
    assert.equal(h2.code, 504, h2.body);
    assert.equal(JSON.parse(h2.body).message, 'Timeout: request did not complete within the allotted timeout');
    assert.ok(answered >= 450 && answered < 1500, `?timeout=500ms answered after ${answered} ms`);
    const idleFrom = Date.now();
    const goneAfter = (await withinMs(sessionClosed, 5000, 'the idle HTTP/2 connection')) - idleFrom;
    assert.ok(goneAfter >= 1000, `the idle HTTP/2 connection went after ${goneAfter} ms`);
  } finally { session.destroy(); }
  const [slowClosed, idleClosed, stalledClosed] = await withinMs(Promise.all([slow.closed, idle.closed, stalled.closed]), 5000, 'the HTTP/1.1 connections');
  assert.match(slow.received(), /^HTTP\/1\.1 408 /);
  assert.ok(slowClosed >= 900 && slowClosed < 3000, `slow headers closed after ${slowClosed} ms`);
  assert.match(idle.received(), /^HTTP\/1\.1 200 /);
  assert.ok(idleClosed >= 1400 && idleClosed < 4000, `idle connection closed after ${idleClosed} ms`);
  const answer = stalled.received();
  assert.match(answer, /^HTTP\/1\.1 504 /);
  const status = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  assert.deepEqual([status.code, status.reason, status.message], [504, 'Timeout', 'Timeout: request did not complete within the allotted timeout']);
  assert.ok(stalledClosed >= 1900, `the stalled body was answered after ${stalledClosed} ms`);
  assertStatus(await prompt('GET', `${cms}?timeout=soon`), 400, 'BadRequest', 'invalid timeout specified in the request URL - time: invalid duration "soon"');
  console.log(`# limits: slow headers closed after ${slowClosed} ms, idle HTTP/1.1 after ${idleClosed} ms, stalled body after ${stalledClosed} ms`);
});

test('limits: on SIGTERM watches end cleanly, the request in flight finishes, and new requests get 429 with Retry-After', async () => {
  const https = await import('node:https');
  const http2 = await import('node:http2');
  const k8s = await import('@kubernetes/client-node');
  const { kubectls, kubectl } = await import('./support/kubectl.ts');
  const own = await startOrch({ args: ['--shutdown-delay-duration=1s', '--shutdown-send-retry-after', '--request-timeout=10s'] });
  try {
    const cred = credentials(own.kubeconfig);
    const base = new URL(own.url);
    const get = (path: string, agent: false | undefined = false) => new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const q = https.request({ host: base.hostname, port: base.port, path, agent, ...cred }, res => { let body = ''; res.on('data', d => { body += d; }); res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body })); });
      q.on('error', reject);
      q.end();
    });
    // HTTP/1.1 watch: a clean end is the chunked terminator ('end'), never an abort
    const h1 = new Promise<{ ended: boolean; lines: string[] }>((resolve, reject) => {
      const q = https.request({ host: base.hostname, port: base.port, path: `${cms}?watch=1`, agent: false, ...cred }, res => {
        const lines: string[] = [];
        res.setEncoding('utf8');
        res.on('data', d => lines.push(...String(d).split('\n').filter(Boolean)));
        res.on('end', () => resolve({ ended: true, lines }));
        res.on('aborted', () => resolve({ ended: false, lines }));
        res.on('error', () => resolve({ ended: false, lines }));
      });
      q.on('error', reject);
      q.end();
    });
    // HTTP/2 watch: END_STREAM, no RST_STREAM with an error
    const session = http2.connect(own.url, cred);
    session.on('error', () => {});
    const h2 = new Promise<{ ended: boolean; rstCode: number; body: string }>(resolve => {
      const s = session.request({ ':path': `${cms}?watch=1` });
      let body = '', ended = false;
      s.on('data', d => { body += d; });
      s.on('end', () => { ended = true; });
      s.on('close', () => resolve({ ended, rstCode: s.rstCode ?? -1, body }));
      s.on('error', () => {});
    });
    // client-node's Watch (what its informers run on): done without an error
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(own.kubeconfig);
    const informerEnd = new Promise<unknown>(resolve => { void new k8s.Watch(kc).watch(cms, {}, () => {}, err => resolve(err ?? null)); });
    // kubectl get -w
    const [bin] = kubectls();
    const kubectlRun = bin ? kubectl(bin.path, own.kubeconfig, ['get', 'configmaps', '-w']) : undefined;
    // a request in flight: its body arrives only after the server began to shut down
    const slow = tls.connect({ host: '127.0.0.1', port: own.port, ALPNProtocols: ['http/1.1'], servername: 'localhost', ...cred });
    let slowReply = '';
    slow.on('data', d => { slowReply += d; });
    const slowDone = new Promise(resolve => slow.once('close', resolve));
    const body = JSON.stringify({ metadata: { name: 'in-flight' } });
    await new Promise(resolve => slow.once('secureConnect', resolve));
    slow.write(`POST ${cms} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`);
    await new Promise(r => setTimeout(r, 1500)); // the watches are open and kubectl has listed
    const exited = new Promise<number | null>(resolve => own.child.once('exit', code => resolve(code)));
    const signalled = Date.now();
    own.child.kill('SIGTERM');
    // during --shutdown-delay-duration: not ready, still serving
    await new Promise(r => setTimeout(r, 300));
    assert.equal((await get('/readyz')).status, 500);
    assert.equal((await get(cms)).status, 200);
    // after it: new requests are turned away; health checks are still answered
    while (Date.now() - signalled < 1300) await new Promise(r => setTimeout(r, 50));
    const turned = await get(cms);
    assert.equal(turned.status, 429, turned.body);
    assert.deepEqual([turned.headers['retry-after'], turned.headers.connection, turned.body], ['5', 'close', 'The apiserver is shutting down, please try again later.\n']);
    assert.equal((await get('/livez')).status, 200);
    // the request in flight is finished and answered
    slow.write(body.slice(5));
    await withinMs(slowDone, 5000, 'the request in flight');
    assert.match(slowReply, /^HTTP\/1\.1 201 /, slowReply.slice(0, 200));
    assert.equal(await withinMs(exited, 10_000, 'the server\'s exit'), 0);
    const [w1, w2, informerErr] = await withinMs(Promise.all([h1, h2, informerEnd]), 5000, 'the watches\' ends');
    assert.ok(w1.ended, 'HTTP/1.1 watch ended with the chunked terminator');
    assert.ok(!w1.lines.some(l => JSON.parse(l).type === 'ERROR' || JSON.parse(l).type === 'BOOKMARK'), w1.lines.join('\n'));
    assert.deepEqual([w2.ended, w2.rstCode], [true, 0], 'HTTP/2 watch ended with END_STREAM');
    assert.doesNotMatch(w2.body, /"type":"(ERROR|BOOKMARK)"/);
    assert.equal(informerErr, null, `client-node's watch ended with ${String(informerErr)}`);
    if (kubectlRun) {
      const r = await withinMs(kubectlRun, 5000, 'kubectl get -w');
      assert.doesNotMatch(r.stderr, /Error from server|an error on the server|unexpected EOF|INTERNAL_ERROR/, r.stderr);
      console.log(`# limits: kubectl get -w at the server's shutdown: exit ${r.code}, stderr ${JSON.stringify(r.stderr.trim())}`);
    }
    session.destroy();
  } finally {
    if (own.child.exitCode === null) await own.kill();
    await own.cleanup();
  }
});
