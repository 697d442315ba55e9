// A client whose certificate rotates closes what it opened with the old one, as client-go and
// the kubelet do: a watch opened as alice must not go on as alice once the client is bob. The
// watch ends at once, and opened again it is bob's (here refused, as bob may not watch).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/api/log.ts';
import { startServer } from '../../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../../src/client/kubeconfig.ts';
import { createClient, ApiError } from '../../../src/client/rest.ts';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCa, issueCert } from '../../../src/pki/certs.ts';
import { eventually } from '../controllers/in-process-api.ts';

test('a rotated client certificate ends the watches opened with the old one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'certs-client-rotation-'));
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const admin = createClient(await loadKubeconfig(server.kubeconfigPath));
  try {
    await admin.create('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'configmap-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    });
    await admin.create('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-reads' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    });
    const alice = await issueCert(server.clusterCA, { commonName: 'alice', days: 1, usage: 'client' });
    const bob = await issueCert(server.clusterCA, { commonName: 'bob', days: 1, usage: 'client' });
    const client = createClient({ server: server.url, ca: Buffer.from(server.clusterCA.cert), cert: Buffer.from(alice.cert), key: Buffer.from(alice.key) });
    try {
      // the authorizer sees the binding a moment after it is written
      await eventually(() => client.list('/api/v1/namespaces/default/configmaps'), 'alice may list configmaps');
      const events: string[] = [];
      let ended: ((err?: Error) => void) | undefined;
      const end = new Promise<Error | undefined>(r => { ended = r; });
      client.watch('/api/v1/namespaces/default/configmaps', undefined, e => events.push(e.type), err => ended!(err));
      // the watch is open as alice when an event arrives on it
      await admin.create('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seen' } });
      for (let i = 0; i < 100 && !events.length; i++) await Promise.race([end.then(e => { throw e ?? new Error('watch ended'); }), new Promise(r => setTimeout(r, 20))]);
      assert.deepEqual(events, ['ADDED']);

      const rotatedAt = Date.now();
      client.setCredentials({ cert: Buffer.from(bob.cert), key: Buffer.from(bob.key) });
      const err = await Promise.race([end, new Promise<'open'>(r => setTimeout(() => r('open'), 3000).unref())]);
      assert.notEqual(err, 'open', 'the watch opened as alice is still open after the rotation');
      assert.ok(Date.now() - rotatedAt < 1000, 'ended at once');

      // what is opened now is bob's
      await assert.rejects(client.list('/api/v1/namespaces/default/configmaps'), (e: unknown) => e instanceof ApiError && e.status.code === 403 && /User "bob" cannot list resource "configmaps"/.test(e.message));
      const refused = await new Promise<Error | undefined>(r => client.watch('/api/v1/namespaces/default/configmaps', undefined, () => {}, r));
      assert.ok(refused instanceof ApiError && refused.status.code === 403, String(refused));
    } finally {
      client.close();
    }
  } finally {
    admin.close();
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('over HTTP/1.1 as well (a server without h2): the watch socket goes, new requests carry the new certificate', async () => {
  const ca = await createCa('rotation-ca', 1);
  const serving = await issueCert(ca, { commonName: 'server', days: 1, usage: 'server', ips: ['127.0.0.1'] });
  const cn = (req: import('node:http').IncomingMessage) => (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
  const server = https.createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['http/1.1'] }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.includes('watch=true')) res.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: cn(req) } } })}\n`);
    else res.end(JSON.stringify({ user: cn(req) }));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const alice = await issueCert(ca, { commonName: 'alice', days: 1, usage: 'client' });
  const bob = await issueCert(ca, { commonName: 'bob', days: 1, usage: 'client' });
  const client = createClient({ server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, ca: Buffer.from(ca.cert), cert: Buffer.from(alice.cert), key: Buffer.from(alice.key) });
  try {
    assert.deepEqual(await client.get('/whoami'), { user: 'alice' });
    const seen: string[] = [];
    const ended = new Promise<Error | undefined>(r => client.watch('/things', undefined, e => seen.push(e.object.metadata.name), r));
    for (let i = 0; i < 100 && !seen.length; i++) await new Promise(r => setTimeout(r, 20));
    assert.deepEqual(seen, ['alice']);
    client.setCredentials({ cert: Buffer.from(bob.cert), key: Buffer.from(bob.key) });
    const err = await Promise.race([ended, new Promise<'open'>(r => setTimeout(() => r('open'), 3000).unref())]);
    assert.notEqual(err, 'open', 'the watch opened as alice is still open after the rotation');
    assert.deepEqual(await client.get('/whoami'), { user: 'bob' });
  } finally {
    client.close();
    server.closeAllConnections();
    server.close();
  }
});

test('a certificate named by files is read again: renewed on disk, the client moves to it and ends the old watches; half-written or unchanged, nothing happens', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'certs-files-'));
  const ca = await createCa('files-ca', 1);
  const serving = await issueCert(ca, { commonName: 'server', days: 1, usage: 'server', ips: ['127.0.0.1'] });
  const server = https.createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.includes('watch=true')) res.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: cn } } })}\n`);
    else res.end(JSON.stringify({ user: cn }));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const alice = await issueCert(ca, { commonName: 'alice', days: 1, usage: 'client' });
  const bob = await issueCert(ca, { commonName: 'bob', days: 1, usage: 'client' });
  writeFileSync(join(dir, 'client.crt'), alice.cert);
  writeFileSync(join(dir, 'client.key'), alice.key);
  writeFileSync(join(dir, 'ca.crt'), ca.cert);
  writeFileSync(join(dir, 'kubeconfig'), JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, 'certificate-authority': 'ca.crt' } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    users: [{ name: 'u', user: { 'client-certificate': 'client.crt', 'client-key': 'client.key' } }],
  }));
  const client = createClient(await loadKubeconfig(join(dir, 'kubeconfig')), { certReloadMs: 30 });
  const settle = () => new Promise(r => setTimeout(r, 200));
  try {
    let ended = false;
    const end = new Promise<void>(r => client.watch('/things', undefined, () => {}, () => { ended = true; r(); }));
    assert.deepEqual(await client.get('/whoami'), { user: 'alice' });
    writeFileSync(join(dir, 'client.crt'), alice.cert);
    await settle();
    assert.equal(ended, false, 'the same certificate written again changes nothing');
    writeFileSync(join(dir, 'client.key'), bob.key);
    await settle();
    assert.equal(ended, false, 'a key without its certificate yet is not taken');
    writeFileSync(join(dir, 'client.crt'), bob.cert);
    await Promise.race([end, new Promise((_, reject) => setTimeout(() => reject(new Error('the watch opened as alice is still open')), 3000).unref())]);
    assert.deepEqual(await client.get('/whoami'), { user: 'bob' });
  } finally {
    client.close();
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
