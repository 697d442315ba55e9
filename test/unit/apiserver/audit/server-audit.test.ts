// The audit of a real API server in this process: the levels of one policy on real requests,
// the stages of a watch, the Audit-ID header (a client's kept), the authorizer's annotations.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startServer, type RunningServer } from '../../../../src/apiserver/start.ts';
import { loadKubeconfig, type ClientConfig } from '../../../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../../../src/client/rest.ts';

const dir = mkdtempSync(join(tmpdir(), 'audit-server-'));
const logPath = join(dir, 'audit.log');
let server: RunningServer;
let client: Client;
let config: ClientConfig;

before(async () => {
  writeFileSync(join(dir, 'policy.yaml'), `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  userGroups: [system:nodes]
- level: RequestResponse
  namespaces: [rr]
  omitStages: [RequestReceived]
- level: Request
  namespaces: [req]
  omitStages: [RequestReceived]
  omitManagedFields: true
- level: Metadata
  namespaces: [meta, watch]
- level: None
  namespaces: [quiet]
- level: Metadata
  nonResourceURLs: [/version*]
`);
  server = await startServer({ dataDir: join(dir, 'data'), port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0, audit: { policyFile: join(dir, 'policy.yaml'), logPath } });
  config = await loadKubeconfig(server.kubeconfigPath);
  client = createClient(config);
});

after(async () => {
  client.close();
  await server.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

interface Event { level: string; auditID: string; stage: string; verb: string; requestURI: string; user: { username: string; groups?: string[] }; objectRef?: Record<string, string>; responseStatus?: { code: number; reason?: string }; requestObject?: any; responseObject?: any; annotations?: Record<string, string> }

async function events(match: (e: Event) => boolean, atLeast = 1): Promise<Event[]> {
  for (let i = 0; i < 100; i++) {
    let text = '';
    try { text = readFileSync(logPath, 'utf8'); } catch { /* not yet */ }
    const found = text.split('\n').filter(Boolean).map(l => JSON.parse(l) as Event).filter(match);
    if (found.length >= atLeast) return found;
    await new Promise(r => setTimeout(r, 20));
  }
  return [];
}

function get(path: string, headers: Record<string, string> = {}): Promise<{ code: number; headers: Record<string, unknown> }> {
  const u = new URL(path, config.server);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, ca: config.ca, cert: config.cert, key: config.key, headers }, res => {
      res.resume();
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const ns = (name: string) => client.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cm = (namespace: string) => client.create(`/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } }, { fieldManager: 'test' });

test('RequestResponse: the request and response objects, stage RequestReceived omitted', async () => {
  await ns('rr');
  await cm('rr');
  const [e] = await events(e => e.objectRef?.namespace === 'rr' && e.verb === 'create');
  assert.ok(e);
  assert.equal(e.level, 'RequestResponse');
  assert.equal(e.stage, 'ResponseComplete');
  assert.deepEqual(e.objectRef, { resource: 'configmaps', namespace: 'rr', name: 'c', apiVersion: 'v1' });
  assert.equal(e.responseStatus?.code, 201);
  assert.deepEqual(e.requestObject.data, { k: 'v' });
  assert.equal(e.responseObject.metadata.name, 'c');
  assert.ok(e.responseObject.metadata.uid);
  assert.ok(e.responseObject.metadata.managedFields, 'kept: the rule does not omit them');
  assert.equal(e.annotations?.['authorization.k8s.io/decision'], 'allow');
  assert.equal(e.user.username, 'kubernetes-admin');
  assert.equal((await events(e => e.objectRef?.namespace === 'rr' && e.stage === 'RequestReceived', 0)).length, 0);
});

test('Request: the request object without managedFields, no response object', async () => {
  await ns('req');
  const created = await cm('req');
  assert.ok(created.metadata.managedFields);
  await client.update('/api/v1/namespaces/req/configmaps/c', { ...created, data: { k: 'u' } });
  await client.patch('/api/v1/namespaces/req/configmaps/c', { data: { k: 'w' } });
  const [update] = await events(e => e.objectRef?.namespace === 'req' && e.verb === 'update');
  assert.ok(update);
  assert.equal(update.level, 'Request');
  assert.equal(update.requestObject.metadata.name, 'c');
  assert.equal(update.requestObject.metadata.managedFields, undefined);
  // uid and resourceVersion of the object sent, as Kubernetes fills the objectRef
  assert.equal(update.objectRef?.uid, created.metadata.uid);
  assert.equal(update.objectRef?.resourceVersion, created.metadata.resourceVersion);
  assert.deepEqual(update.requestObject.data, { k: 'u' });
  assert.equal(update.responseObject, undefined);
  const [patch] = await events(e => e.objectRef?.namespace === 'req' && e.verb === 'patch');
  assert.deepEqual(patch?.requestObject, { data: { k: 'w' } });
  assert.equal(patch?.responseStatus?.code, 200);
});

test('Metadata: no objects; both stages; a failure carries its Status', async () => {
  await ns('meta');
  await assert.rejects(client.get('/api/v1/namespaces/meta/secrets/nope'));
  const found = await events(e => e.objectRef?.namespace === 'meta' && e.objectRef.name === 'nope', 2);
  assert.deepEqual(found.map(e => e.stage), ['RequestReceived', 'ResponseComplete']);
  assert.equal(found[0]!.auditID, found[1]!.auditID);
  const done = found[1]!;
  assert.equal(done.level, 'Metadata');
  assert.equal(done.requestObject, undefined);
  assert.equal(done.responseObject, undefined);
  assert.deepEqual(done.responseStatus, { metadata: {}, status: 'Failure', message: 'secrets "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'secrets' }, code: 404 });
});

test('None: nothing is written', async () => {
  await ns('quiet');
  await cm('quiet');
  await ns('meta2'); // matches no rule
  await get('/version'); // a later event, so the writes before it are in the file
  await events(e => e.requestURI === '/version');
  assert.deepEqual(await events(e => e.objectRef?.namespace === 'quiet' || e.objectRef?.name === 'meta2', 0), []);
});

test('every response has an Audit-ID; a client\'s own is kept and logged', async () => {
  const mine = await get('/version', { 'Audit-ID': 'my-audit-id-1' });
  assert.equal(mine.headers['audit-id'], 'my-audit-id-1');
  const [e] = await events(e => e.auditID === 'my-audit-id-1' && e.stage === 'ResponseComplete');
  assert.equal(e?.requestURI, '/version');
  assert.equal(e?.verb, 'get');
  const fresh = await get('/api/v1/namespaces/quiet/configmaps/nope');
  assert.equal(fresh.code, 404);
  assert.match(String(fresh.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('a watch has ResponseStarted when its headers go out, ResponseComplete when it ends', async () => {
  await ns('watch');
  const w = client.watch('/api/v1/namespaces/watch/configmaps', { timeoutSeconds: '1' }, () => undefined, () => undefined);
  const found = await events(e => e.objectRef?.namespace === 'watch' && e.verb === 'watch', 3);
  w.stop();
  assert.deepEqual(found.map(e => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  assert.equal(found[1]!.responseStatus?.code, 200);
});
