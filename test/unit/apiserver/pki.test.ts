import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensurePki, issueClientCert } from '../../../src/apiserver/pki.ts';
import { kubeconfigYaml } from '../../../src/apiserver/kubeconfig.ts';

test('a CA, a serving certificate with the wanted names, an admin client certificate', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pki-'));
  try {
    const pki = await ensurePki(dir, { hosts: ['myhost'], ips: ['127.0.0.2'] });
    const ca = new X509Certificate(pki.caCert);
    const server = new X509Certificate(pki.serverCert);
    const admin = new X509Certificate(pki.adminCert);
    assert.ok(ca.ca);
    assert.ok(server.verify(ca.publicKey) && admin.verify(ca.publicKey));
    for (const n of ['DNS:localhost', 'DNS:kubernetes.default.svc', 'DNS:myhost', 'IP Address:127.0.0.1', 'IP Address:127.0.0.2']) {
      assert.ok(server.subjectAltName!.includes(n), n);
    }
    assert.match(admin.subject, /CN=kubernetes-admin/);
    assert.match(admin.subject, /O=system:masters/);
    assert.equal((await stat(join(dir, 'pki', 'ca.key'))).mode & 0o777, 0o600);
    const again = await ensurePki(dir, { hosts: ['myhost'], ips: ['127.0.0.2'] });
    assert.equal(again.serverCert, pki.serverCert, 'reused when nothing changed');
    const more = await ensurePki(dir, { hosts: ['other'], ips: [] });
    assert.notEqual(more.serverCert, pki.serverCert, 'reissued for a new name');
    assert.equal(more.caCert, pki.caCert);
    const node = new X509Certificate((await issueClientCert(pki, { commonName: 'system:node:n1', organizations: ['system:nodes'] })).cert);
    assert.match(node.subject, /CN=system:node:n1/);
    assert.ok(node.verify(ca.publicKey));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('kubeconfig embeds the credentials', async () => {
  const kc = parse(kubeconfigYaml({ server: 'https://127.0.0.1:6443', caCertPem: 'CA', clientCertPem: 'CERT', clientKeyPem: 'KEY' }));
  assert.equal(kc['current-context'], 'orch');
  assert.equal(kc.clusters[0].cluster.server, 'https://127.0.0.1:6443');
  assert.equal(Buffer.from(kc.users[0].user['client-key-data'], 'base64').toString(), 'KEY');
  assert.equal(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), 'CA');
});
