// Extension API servers' OpenAPI documents downloaded over the front-proxy identity from an
// HTTPS extension served in-process, refreshed and dropped as the APIService comes and goes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRegistry } from '../../support/registry.ts';
import { createCa, issueCert } from '../../../../src/pki/certs.ts';
import { ensureFrontProxyPki } from '../../../../src/apiserver/aggregator/front-proxy.ts';
import { RemoteOpenAPISpecs } from '../../../../src/apiserver/aggregator/remote-openapi.ts';
import type { RemoteAPIService } from '../../../../src/apiserver/aggregator/controller.ts';
import type { Logger } from '../../../../src/api/log.ts';

const warnings: string[] = [];
const log = { info() {}, warn(msg: string) { warnings.push(msg); }, error() {}, debug() {}, enabled: () => false } as unknown as Logger;

test('v2 and the group-version\'s v3 document fetched as system:aggregator; kept on failure, dropped when unavailable', async t => {
  const reg = await testRegistry();
  const dir = await mkdtemp(join(tmpdir(), 'crd-openapi-remote-'));
  t.after(async () => { await reg.close(); await rm(dir, { recursive: true, force: true }); });
  const frontProxy = await ensureFrontProxyPki(dir);
  const ca = await createCa('ext-ca', 1);
  const serving = await issueCert(ca, { commonName: 'api', days: 1, usage: 'server', dnsNames: ['api.wardle.svc'] });
  let title = 'one';
  let down = false;
  const seen: string[] = [];
  const server = createServer({ cert: serving.cert, key: serving.key, ca: frontProxy.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    seen.push(`${req.url} ${req.headers['x-remote-user']} ${req.headers['x-remote-group'] ?? '-'}`);
    if (down) return void res.writeHead(503).end();
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/openapi/v2') return json({ swagger: '2.0', info: { title }, paths: {}, definitions: {} });
    if (req.url === '/openapi/v3') return json({ paths: { 'apis/wardle.example.com/v1alpha1': { serverRelativeURL: '/openapi/v3/apis/wardle.example.com/v1alpha1?hash=X' }, 'apis/other/v1': { serverRelativeURL: '/nope' } } });
    if (req.url === '/openapi/v3/apis/wardle.example.com/v1alpha1?hash=X') return json({ openapi: '3.0.0', info: { title }, paths: {} });
    res.writeHead(404).end();
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise(r => server.close(r)));
  const port = (server.address() as AddressInfo).port;
  await reg.store.create(reg.info('', 'services'), 'wardle', { metadata: { name: 'api', namespace: 'wardle' }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } } as never);
  await reg.store.create(reg.info('', 'endpoints'), 'wardle', { metadata: { name: 'api', namespace: 'wardle' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] } as never);

  let clock = 1_000_000;
  const specs = new RemoteOpenAPISpecs({ store: reg.store, catalog: reg.catalog, client: frontProxy.client, log, now: () => clock });
  const spec = { group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'wardle', name: 'api', port: 443 }, caBundle: Buffer.from(ca.cert).toString('base64') };
  const api: RemoteAPIService = { name: 'v1alpha1.wardle.example.com', group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, ref: { namespace: 'wardle', name: 'api', port: 443 }, spec, available: true };

  await specs.refresh([api]);
  assert.deepEqual(seen, ['/openapi/v2 system:aggregator -', '/openapi/v3 system:aggregator -', '/openapi/v3/apis/wardle.example.com/v1alpha1?hash=X system:aggregator -']);
  assert.equal((specs.v2Documents()[0]!.info as { title: string }).title, 'one');
  assert.deepEqual(specs.v3Paths(), ['apis/wardle.example.com/v1alpha1']);
  assert.match(specs.v3Document('apis/wardle.example.com/v1alpha1')!.body, /"title":"one"/);
  const g1 = specs.generation();

  // within the resync period nothing is fetched again; after it, the new content moves the generation
  title = 'two';
  seen.length = 0;
  await specs.refresh([api]);
  assert.deepEqual(seen, []);
  clock += 61_000;
  await specs.refresh([api]);
  assert.ok(specs.generation() > g1);
  assert.match(specs.v3Document('apis/wardle.example.com/v1alpha1')!.body, /"title":"two"/);

  // a failing extension keeps its last documents; an unavailable one is dropped
  down = true;
  clock += 61_000;
  const g2 = specs.generation();
  await specs.refresh([api]);
  assert.equal(specs.generation(), g2);
  assert.equal(specs.v2Documents().length, 1);
  assert.ok(warnings.includes('apiservice openapi download failed'));
  await specs.refresh([{ ...api, available: false }]);
  assert.deepEqual([specs.v2Documents(), specs.v3Paths()], [[], []]);
  assert.ok(specs.generation() > g2);
});
