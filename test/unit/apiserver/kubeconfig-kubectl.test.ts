// Real kubectl (Go's crypto/tls, its kubeconfig loader) against our certificates and kubeconfig:
// proves the key type, the extensions and the embedded data are what Go clients accept.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ensurePki } from '../../../src/apiserver/cluster-certs.ts';
import type { Pki } from '../../../src/apiserver/cluster-certs.ts';
import { writeKubeconfig } from '../../../src/apiserver/kubeconfig.ts';
import { createClientCertAuthenticator } from '../../../src/apiserver/authn/client-cert.ts';
import { requires } from '../../support/requires.ts';

const version = {
  major: '1', minor: '36', gitVersion: 'v1.36.0-orch', gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.25.0', compiler: 'gc', platform: 'linux/amd64',
};

const kubectls = ['/usr/bin/kubectl', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'];

let dir: string;
let pki: Pki;
let server: http2.Http2SecureServer;
let port: number;
const seen: Array<{ httpVersion: string; user?: string }> = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kubectl-tls-'));
  pki = await ensurePki(dir, { hosts: [], ips: [] });
  const authn = createClientCertAuthenticator({ caCert: pki.caCert });
  server = http2.createSecureServer({ allowHTTP1: true, cert: pki.serverCert, key: pki.serverKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: false });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    const user = authn(req.socket as TLSSocket, req.stream?.session ?? req.socket);
    seen.push({ httpVersion: req.httpVersion, user: user?.name });
    if (!user) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
    } else if (new URL(req.url, 'https://x').pathname === '/version') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(version));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found\n');
    }
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    // no proxies, and a private HOME so kubectl's caches land in the temp dir
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_PROXY: '*' };
    // stdin closed: kubectl must not sit waiting to prompt for a password
    const child = spawn(bin, args, { env, timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', c => { stdout += c; });
    child.stderr.on('data', c => { stderr += c; });
    child.on('close', code => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

for (const bin of kubectls) {
  const needed = requires(!existsSync(bin) && `${bin} not installed`);
  test(`${bin} version -o json reads the server version over our TLS`, needed, async () => {
    for (const server of [`https://127.0.0.1:${port}`, `https://localhost:${port}`]) {
      const kubeconfig = join(dir, 'admin.kubeconfig');
      await writeKubeconfig(kubeconfig, { server, caCertPem: pki.caCert, clientCertPem: pki.adminCert, clientKeyPem: pki.adminKey });
      seen.length = 0;
      const r = await run(bin, ['--kubeconfig', kubeconfig, 'version', '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.serverVersion.gitVersion, 'v1.36.0-orch');
      assert.equal(out.serverVersion.minor, '36');
      assert.ok(seen.some(s => s.user === 'kubernetes-admin' && s.httpVersion === '2.0'), JSON.stringify(seen));
    }
  });

  test(`${bin} with another cluster's client certificate is refused`, needed, async () => {
    const stranger = await ensurePki(join(dir, 'other'), { hosts: [], ips: [] });
    const kubeconfig = join(dir, 'stranger.kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${port}`, caCertPem: pki.caCert, clientCertPem: stranger.adminCert, clientKeyPem: stranger.adminKey });
    seen.length = 0;
    const r = await run(bin, ['--kubeconfig', kubeconfig, 'version', '-o', 'json']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Unauthorized|provide credentials/i);
    assert.equal(seen.some(s => s.user !== undefined), false);
  });
}

test('@kubernetes/client-node reads the server version with the same kubeconfig', async () => {
  const { KubeConfig, VersionApi } = await import('@kubernetes/client-node');
  const kubeconfig = join(dir, 'node-client.kubeconfig');
  await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${port}`, caCertPem: pki.caCert, clientCertPem: pki.adminCert, clientKeyPem: pki.adminKey });
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  seen.length = 0;
  const info = await kc.makeApiClient(VersionApi).getCode();
  assert.equal(info.gitVersion, 'v1.36.0-orch');
  assert.deepEqual(seen.map(s => s.user), ['kubernetes-admin']);
});
