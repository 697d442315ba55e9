// The availability controller against a real store and an HTTPS extension served in-process.

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
import { AvailabilityController } from '../../../../src/apiserver/aggregator/controller.ts';
import { ensureLocalAPIServices } from '../../../../src/apiserver/aggregator/local-apiservices.ts';
import type { Logger } from '../../../../src/api/log.ts';

const quiet = { info() {}, warn() {}, error() {}, debug() {}, enabled: () => false } as unknown as Logger;
const gvPath = '/apis/wardle.example.com/v1alpha1';

test('Passed with the discovery kept, then FailedDiscoveryCheck in kube-aggregator\'s words; local ones Local', async t => {
  const reg = await testRegistry();
  const dir = await mkdtemp(join(tmpdir(), 'aggregator-ctl-'));
  t.after(async () => { await reg.close(); await rm(dir, { recursive: true, force: true }); });
  const frontProxy = await ensureFrontProxyPki(dir);
  const ca = await createCa('ext-ca', 1);
  const serving = await issueCert(ca, { commonName: 'api', days: 1, usage: 'server', dnsNames: ['api.wardle.svc'] });
  let status = 200;
  const users: string[] = [];
  const server = createServer({ cert: serving.cert, key: serving.key, ca: frontProxy.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    users.push(`${req.headers['x-remote-user']}|${req.headers['x-remote-group']}`);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'APIResourceList', groupVersion: 'wardle.example.com/v1alpha1', resources: [{ name: 'flunders', kind: 'Flunder', namespaced: true, verbs: ['get'] }] }));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  t.after(() => new Promise(r => server.close(r)));

  await reg.store.create(reg.info('', 'services'), 'wardle', { metadata: { name: 'api', namespace: 'wardle' }, spec: { ports: [{ name: 'https', port: 443, targetPort: port }] } } as never);
  await reg.store.create(reg.info('', 'endpoints'), 'wardle', { metadata: { name: 'api', namespace: 'wardle' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] } as never);
  const apiservices = reg.info('apiregistration.k8s.io', 'apiservices');
  await reg.store.create(apiservices, undefined, { metadata: { name: 'v1alpha1.wardle.example.com' }, spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'wardle', name: 'api', port: 443 }, caBundle: Buffer.from(ca.cert).toString('base64') } } as never);
  await ensureLocalAPIServices(reg.store, reg.catalog);

  let clock = 1_000_000;
  const ctl = new AvailabilityController({ store: reg.store, catalog: reg.catalog, frontProxy, log: quiet, recheckMs: 10_000, now: () => clock });
  const condition = async (name = 'v1alpha1.wardle.example.com') => ((await reg.store.get(apiservices, undefined, name)) as { status?: { conditions?: Array<Record<string, string>> } }).status?.conditions?.[0];

  await ctl.tick();
  assert.deepEqual({ ...(await condition())!, lastTransitionTime: undefined }, { type: 'Available', status: 'True', lastTransitionTime: undefined, reason: 'Passed', message: 'all checks passed' });
  assert.deepEqual(users, ['system:kube-aggregator|system:masters']);
  const entry = ctl.remote.get('wardle.example.com/v1alpha1')!;
  assert.equal(entry.available, true);
  assert.equal(entry.discovery?.resources?.[0]?.name, 'flunders');
  assert.equal((await condition('v1.apps'))!.reason, 'Local');

  // nothing changed and the check is recent: no new call
  await ctl.tick();
  assert.equal(users.length, 1);

  status = 503;
  clock += 10_000;
  await ctl.tick();
  const url = `https://127.0.0.1:${port}${gvPath}`;
  assert.deepEqual({ ...(await condition())!, lastTransitionTime: undefined }, { type: 'Available', status: 'False', lastTransitionTime: undefined, reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: bad status from ${url}: 503` });
  assert.equal(ctl.remote.get('wardle.example.com/v1alpha1')!.available, false);

  await new Promise(r => server.close(r));
  server.closeAllConnections();
  await ctl.tick();
  assert.equal((await condition())!.message, `failing or missing response from ${url}: Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused`);

  await reg.store.delete(reg.info('', 'services'), 'wardle', 'api');
  await ctl.tick();
  assert.equal((await condition())!.reason, 'ServiceNotFound');

  await reg.store.delete(apiservices, undefined, 'v1alpha1.wardle.example.com');
  await ctl.tick();
  assert.equal(ctl.remote.size, 0);
});
