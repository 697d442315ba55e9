import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import { ensureClientCert, ensurePki, issueClientCert, issueServingCert } from '../../../src/apiserver/cluster-certs.ts';
import { certProblem, issueCert, splitHostsAndIps } from '../../../src/pki/certs.ts';
import { kubeconfigYaml, writeKubeconfig } from '../../../src/apiserver/kubeconfig.ts';
import { requires } from '../../support/requires.ts';

const DAY = 24 * 3600 * 1000;
const serverAuth = '1.3.6.1.5.5.7.3.1';
const clientAuth = '1.3.6.1.5.5.7.3.2';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pki-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const days = (c: X509Certificate) => (Date.parse(c.validTo) - Date.now()) / DAY;

test('first start: a CA, a serving certificate with every wanted name, an admin client certificate', () => withDir(async dir => {
  const started = performance.now();
  const pki = await ensurePki(dir, { hosts: ['myhost.example', '10.1.2.3'], ips: ['127.0.0.2', '[fd00::5]'] });
  const ms = performance.now() - started;
  console.log(`ensurePki on first start: ${ms.toFixed(0)} ms`);
  const ca = new X509Certificate(pki.caCert);
  const server = new X509Certificate(pki.serverCert);
  const admin = new X509Certificate(pki.adminCert);

  assert.ok(ca.ca);
  assert.equal(ca.subject, 'CN=orch-ca');
  assert.ok(days(ca) > 3640 && days(ca) < 3660, `CA for ten years, got ${days(ca)} days`);
  assert.ok(ca.verify(ca.publicKey), 'self-signed');

  assert.equal(server.ca, false);
  assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey));
  for (const h of ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', hostname(), 'myhost.example']) {
    assert.equal(server.checkHost(h, { subject: 'never' }), h.toLowerCase(), h);
  }
  assert.equal(server.checkHost('other.example', { subject: 'never' }), undefined);
  for (const ip of ['127.0.0.1', '::1', '10.96.0.1', '127.0.0.2', 'fd00::5', '10.1.2.3']) assert.equal(server.checkIP(ip), ip, ip);
  assert.deepEqual(server.keyUsage, [serverAuth]);
  assert.ok(days(server) > 360 && days(server) < 366);

  assert.equal(admin.subject, 'O=system:masters\nCN=kubernetes-admin');
  assert.deepEqual(admin.keyUsage, [clientAuth]);
  assert.ok(admin.verify(ca.publicKey));
  assert.equal(admin.subjectAltName, undefined);

  for (const key of [pki.caKey, pki.serverKey, pki.adminKey]) {
    assert.match(key, /^-----BEGIN PRIVATE KEY-----\n/);
    const k = createPrivateKey(key);
    assert.deepEqual([k.asymmetricKeyType, k.asymmetricKeyDetails?.namedCurve], ['ec', 'prime256v1']);
  }
  assert.ok(server.checkPrivateKey(createPrivateKey(pki.serverKey)));
  assert.ok(admin.checkPrivateKey(createPrivateKey(pki.adminKey)));
  // what the API server shows node agents when it fetches logs
  const kubeletClient = new X509Certificate(pki.kubeletClientCert);
  assert.equal(kubeletClient.subject, 'O=system:masters\nCN=kube-apiserver-kubelet-client');
  assert.deepEqual(kubeletClient.keyUsage, [clientAuth]);
  assert.ok(kubeletClient.verify(ca.publicKey));

  // the controller manager's and the scheduler's own identities
  assert.equal(new X509Certificate(pki.controllerManager.cert).subject, 'CN=system:kube-controller-manager');
  assert.equal(new X509Certificate(pki.scheduler.cert).subject, 'CN=system:kube-scheduler');
  assert.ok(new X509Certificate(pki.scheduler.cert).verify(ca.publicKey));

  const pkiDir = join(dir, 'pki');
  assert.equal(pki.dir, pkiDir);
  assert.deepEqual((await readdir(pkiDir)).sort(), ['admin.crt', 'admin.key', 'apiserver-kubelet-client.crt', 'apiserver-kubelet-client.key', 'apiserver.crt', 'apiserver.key', 'ca.crt', 'ca.key', 'controller-manager.crt', 'controller-manager.key', 'scheduler.crt', 'scheduler.key'], 'no temp files left');
  assert.equal((await stat(pkiDir)).mode & 0o777, 0o700);
  for (const f of ['ca.key', 'apiserver.key', 'admin.key']) assert.equal((await stat(join(pkiDir, f))).mode & 0o777, 0o600, f);
  for (const f of ['ca.crt', 'apiserver.crt', 'admin.crt']) assert.equal((await stat(join(pkiDir, f))).mode & 0o777, 0o644, f);
  assert.equal(await readFile(join(pkiDir, 'apiserver.crt'), 'utf8'), pki.serverCert);
}));

test('later starts reuse what fits and reissue what does not', () => withDir(async dir => {
  const opts = { hosts: ['myhost'], ips: ['127.0.0.2'] };
  const first = await ensurePki(dir, opts);
  const started = performance.now();
  assert.deepEqual(await ensurePki(dir, opts), first, 'everything reused');
  console.log(`ensurePki reusing files: ${(performance.now() - started).toFixed(1)} ms`);
  assert.deepEqual(await ensurePki(dir, { hosts: [], ips: [] }), first, 'a subset of the names is still covered');

  const more = await ensurePki(dir, { hosts: ['other'], ips: [] });
  assert.notEqual(more.serverCert, first.serverCert, 'reissued for a new name');
  assert.equal(new X509Certificate(more.serverCert).checkHost('other'), 'other');
  assert.deepEqual([more.caCert, more.adminCert], [first.caCert, first.adminCert]);

  // a serving certificate that expires within 30 days is replaced
  const short = await issueCert({ cert: first.caCert, key: first.caKey }, { commonName: 'kube-apiserver', days: 20, usage: 'server', ...splitHostsAndIps(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', hostname(), 'other'], ['127.0.0.1', '::1', '10.96.0.1']) });
  assert.equal(certProblem(short, { caCert: first.caCert, renewBeforeMs: 30 * DAY }), 'expires soon');
  await writeFile(join(dir, 'pki', 'apiserver.crt'), short.cert);
  await writeFile(join(dir, 'pki', 'apiserver.key'), short.key);
  const renewed = await ensurePki(dir, { hosts: ['other'], ips: [] });
  assert.notEqual(renewed.serverCert, short.cert);
  assert.ok(days(new X509Certificate(renewed.serverCert)) > 360);

  // a key that does not belong to its certificate (crash between the two writes) is replaced
  await writeFile(join(dir, 'pki', 'admin.key'), renewed.serverKey);
  const fixed = await ensurePki(dir, { hosts: ['other'], ips: [] });
  assert.notEqual(fixed.adminCert, renewed.adminCert);
  assert.ok(new X509Certificate(fixed.adminCert).checkPrivateKey(createPrivateKey(fixed.adminKey)));

  // a new CA: every leaf is reissued under it
  await rm(join(dir, 'pki', 'ca.crt'));
  const fresh = await ensurePki(dir, { hosts: ['other'], ips: [] });
  assert.notEqual(fresh.caCert, first.caCert);
  const ca = new X509Certificate(fresh.caCert);
  assert.ok(new X509Certificate(fresh.serverCert).verify(ca.publicKey));
  assert.ok(new X509Certificate(fresh.adminCert).verify(ca.publicKey));
}));

test('certProblem names the reason a stored certificate no longer fits', () => withDir(async dir => {
  const pki = await ensurePki(dir, { hosts: [], ips: [] });
  const admin = { cert: pki.adminCert, key: pki.adminKey };
  const base = { caCert: pki.caCert, renewBeforeMs: 0 };
  assert.equal(certProblem(admin, { ...base, commonName: 'kubernetes-admin', organizations: ['system:masters'] }), undefined);
  assert.equal(certProblem(admin, { ...base, commonName: 'someone' }), 'common name changed');
  assert.equal(certProblem(admin, { ...base, organizations: [] }), 'organizations changed');
  assert.equal(certProblem(admin, { ...base, dnsNames: ['localhost'] }), 'no subject alternative name localhost');
  assert.equal(certProblem(admin, { ...base, caCert: pki.adminCert }), 'not signed by the current CA');
  assert.equal(certProblem({ cert: pki.adminCert, key: pki.caKey }, base), 'key does not match certificate');
  assert.match(certProblem({ cert: 'garbage', key: pki.adminKey }, base)!, /^unreadable/);
}));

test('issueClientCert and issueServingCert sign with the cluster CA', () => withDir(async dir => {
  const pki = await ensurePki(dir, { hosts: [], ips: [] });
  const ca = new X509Certificate(pki.caCert);
  const node = await issueClientCert(pki, { commonName: 'system:node:n1', organizations: ['system:nodes', 'team, with comma'], days: 30 });
  const cert = new X509Certificate(node.cert);
  assert.equal(cert.subject, 'O=system:nodes\nO=team\\, with comma\nCN=system:node:n1');
  assert.equal(certProblem(node, { caCert: pki.caCert, renewBeforeMs: 0, commonName: 'system:node:n1', organizations: ['team, with comma', 'system:nodes'] }), undefined);
  assert.ok(cert.verify(ca.publicKey));
  assert.deepEqual(cert.keyUsage, [clientAuth]);
  assert.ok(days(cert) > 29 && days(cert) < 31);
  assert.ok(cert.checkPrivateKey(createPrivateKey(node.key)));
  const serving = new X509Certificate((await issueServingCert(pki, { commonName: 'n1', hosts: ['n1'], ips: ['192.0.2.7'] })).cert);
  assert.deepEqual(serving.keyUsage, [serverAuth]);
  assert.equal(serving.checkIP('192.0.2.7'), '192.0.2.7');
  assert.equal(serving.checkHost('n1'), 'n1');
}));

test('an RSA CA brought from elsewhere is kept and signs the leaves', requires(!existsSync('/usr/bin/openssl') && 'openssl not installed'), () => withDir(async dir => {
  const pkiDir = join(dir, 'pki');
  await rm(pkiDir, { recursive: true, force: true });
  execFileSync('mkdir', ['-p', pkiDir]);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=kubernetes', '-days', '100',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,digitalSignature',
    '-keyout', join(pkiDir, 'ca.key'), '-out', join(pkiDir, 'ca.crt')], { stdio: 'ignore' });
  const caPem = await readFile(join(pkiDir, 'ca.crt'), 'utf8');
  const pki = await ensurePki(dir, { hosts: [], ips: [] });
  assert.equal(pki.caCert, caPem);
  const ca = new X509Certificate(caPem);
  assert.ok(new X509Certificate(pki.serverCert).verify(ca.publicKey));
  assert.ok(new X509Certificate(pki.adminCert).verify(ca.publicKey));
  // and openssl agrees the chain is good
  await writeFile(join(dir, 'admin.crt'), pki.adminCert);
  const out = execFileSync('openssl', ['verify', '-CAfile', join(pkiDir, 'ca.crt'), '-purpose', 'sslclient', join(dir, 'admin.crt')]).toString();
  assert.match(out, /: OK/);
}));

test('ensureClientCert keeps the pair in the certificates directory and reuses it while it fits', () => withDir(async dir => {
  const pki = await ensurePki(dir, { hosts: [], ips: [] });
  const first = await ensureClientCert(pki, 'kube-proxy', { commonName: 'system:kube-proxy' });
  assert.equal(new X509Certificate(first.cert).subject, 'CN=system:kube-proxy');
  assert.ok(new X509Certificate(first.cert).verify(new X509Certificate(pki.caCert).publicKey));
  assert.equal(await readFile(join(pki.dir, 'kube-proxy.crt'), 'utf8'), first.cert);
  assert.deepEqual(await ensureClientCert(pki, 'kube-proxy', { commonName: 'system:kube-proxy' }), first);
  // another identity under the same name is issued anew
  const other = await ensureClientCert(pki, 'kube-proxy', { commonName: 'system:kube-proxy', organizations: ['system:nodes'] });
  assert.notEqual(other.cert, first.cert);
  assert.equal(new X509Certificate(other.cert).subject, 'O=system:nodes\nCN=system:kube-proxy');
}));

test('splitHostsAndIps sorts names into DNS names and addresses', () => {
  assert.deepEqual(splitHostsAndIps(['A.example', ' ', '10.0.0.1', '[::2]', 'a.example', 'bad name', 'ünï.example'], ['FD00::1', '10.0.0.1']),
    { dnsNames: ['a.example', 'xn--n-nga1b.example'], ips: ['10.0.0.1', '::2', 'fd00::1'] });
});

test('kubeconfig embeds the credentials and names its context', () => {
  const kc = parse(kubeconfigYaml({ server: 'https://127.0.0.1:6443', caCertPem: 'CA\n', clientCertPem: 'CERT', clientKeyPem: 'KEY', clusterName: 'c', userName: 'u', contextName: 'x' }));
  assert.equal(kc.apiVersion, 'v1');
  assert.equal(kc.kind, 'Config');
  assert.equal(kc['current-context'], 'x');
  assert.deepEqual(kc.contexts, [{ name: 'x', context: { cluster: 'c', user: 'u' } }]);
  assert.equal(kc.clusters[0].name, 'c');
  assert.equal(kc.clusters[0].cluster.server, 'https://127.0.0.1:6443');
  assert.equal(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), 'CA\n');
  assert.equal(kc.users[0].name, 'u');
  assert.equal(Buffer.from(kc.users[0].user['client-certificate-data'], 'base64').toString(), 'CERT');
  assert.equal(Buffer.from(kc.users[0].user['client-key-data'], 'base64').toString(), 'KEY');
  assert.equal(parse(kubeconfigYaml({ server: 's', caCertPem: 'a', clientCertPem: 'b', clientKeyPem: 'c' }))['current-context'], 'orch');
  // written without the YAML library: names YAML would read otherwise stay strings, as given
  const odd = parse(kubeconfigYaml({ server: 'https://[::1]:6443', caCertPem: 'a', clientCertPem: 'b', clientKeyPem: 'c', clusterName: 'yes', userName: 'system:kube-scheduler', contextName: '# "x": \\ ü' }));
  assert.deepEqual(odd.contexts, [{ name: '# "x": \\ ü', context: { cluster: 'yes', user: 'system:kube-scheduler' } }]);
  assert.equal(odd.clusters[0].cluster.server, 'https://[::1]:6443');
  assert.equal(odd['current-context'], '# "x": \\ ü');
});

test('writeKubeconfig: owner-only file that @kubernetes/client-node reads', () => withDir(async dir => {
  const pki = await ensurePki(dir, { hosts: [], ips: [] });
  const path = join(dir, 'admin.kubeconfig');
  await writeFile(path, 'old', { mode: 0o644 });
  await writeKubeconfig(path, { server: 'https://127.0.0.1:6443', caCertPem: pki.caCert, clientCertPem: pki.adminCert, clientKeyPem: pki.adminKey });
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.deepEqual((await readdir(dir)).sort(), ['admin.kubeconfig', 'pki']);
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  assert.equal(kc.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
  assert.equal(Buffer.from(kc.getCurrentCluster()!.caData!, 'base64').toString(), pki.caCert);
  assert.equal(Buffer.from(kc.getCurrentUser()!.keyData!, 'base64').toString(), pki.adminKey);
}));
