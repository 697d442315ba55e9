// The cluster's TLS material, made on first start and reused afterwards: a CA, the API server's
// serving certificate and an admin client certificate (CN kubernetes-admin, O system:masters).
// ECDSA P-256 keys: quick to make, and accepted by Go's crypto/tls and Node's.

import { webcrypto } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { Logger } from '../api/log.ts';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as never);

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const day = 24 * 3600 * 1000;

export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
}

async function atomicWrite(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

async function readPair(dir: string, name: string): Promise<{ cert: string; key: string } | undefined> {
  try {
    return { cert: await readFile(join(dir, `${name}.crt`), 'utf8'), key: await readFile(join(dir, `${name}.key`), 'utf8') };
  } catch {
    return undefined;
  }
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key as never);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function importKey(pem: string): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decode(pem)[0]!, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']) as unknown as CryptoKey;
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1');
}

interface Issuer { cert: x509.X509Certificate; key: CryptoKey }

async function makeCa(): Promise<{ cert: string; key: string }> {
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']) as unknown as CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(), name: 'CN=orch-ca', keys, signingAlgorithm: alg,
    notBefore: new Date(now - 3600_000), notAfter: new Date(now + 3650 * day),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey) };
}

export interface LeafRequest {
  subject: string;
  days: number;
  usage: 'server' | 'client';
  dns?: string[];
  ips?: string[];
}

async function issue(ca: Issuer, req: LeafRequest): Promise<{ cert: string; key: string }> {
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']) as unknown as CryptoKeyPair;
  const now = Date.now();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.cert, false),
  ];
  if (req.usage === 'server') {
    extensions.push(new x509.SubjectAlternativeNameExtension([
      ...(req.dns ?? []).map(value => ({ type: 'dns' as const, value })),
      ...(req.ips ?? []).map(value => ({ type: 'ip' as const, value })),
    ]));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(), subject: req.subject, issuer: ca.cert.subject, publicKey: keys.publicKey,
    signingKey: ca.key, signingAlgorithm: alg,
    notBefore: new Date(now - 3600_000), notAfter: new Date(now + req.days * day), extensions,
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey) };
}

/** a client certificate signed by the cluster CA (admin, node agents, controllers) */
export async function issueClientCert(pki: Pick<Pki, 'caCert' | 'caKey'>, opts: { commonName: string; organizations?: string[]; days?: number }): Promise<{ cert: string; key: string }> {
  const subject = [`CN=${opts.commonName}`, ...(opts.organizations ?? []).map(o => `O=${o}`)].join(', ');
  return issue({ cert: new x509.X509Certificate(pki.caCert), key: await importKey(pki.caKey) }, { subject, days: opts.days ?? 365, usage: 'client' });
}

function coversSans(pem: string, dns: string[], ips: string[]): boolean {
  const cert = new x509.X509Certificate(pem);
  if (cert.notAfter.getTime() - Date.now() < 30 * day) return false;
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  if (!san) return false;
  const have = new Set(san.names.items.map(n => `${n.type}:${n.value}`));
  return dns.every(d => have.has(`dns:${d}`)) && ips.every(i => have.has(`ip:${i}`));
}

export async function ensurePki(dataDir: string, opts: { hosts: string[]; ips: string[]; log?: Logger }): Promise<Pki> {
  const dir = join(dataDir, 'pki');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const save = async (name: string, pair: { cert: string; key: string }) => {
    await atomicWrite(join(dir, `${name}.key`), pair.key, 0o600);
    await atomicWrite(join(dir, `${name}.crt`), pair.cert, 0o644);
  };
  let ca = await readPair(dir, 'ca');
  if (!ca) {
    ca = await makeCa();
    await save('ca', ca);
    opts.log?.info('created cluster CA', { dir });
  }
  const issuer: Issuer = { cert: new x509.X509Certificate(ca.cert), key: await importKey(ca.key) };
  const dns = [...new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', ...opts.hosts])];
  const ips = [...new Set(['127.0.0.1', '::1', '10.96.0.1', ...opts.ips])];
  let server = await readPair(dir, 'apiserver');
  if (!server || !coversSans(server.cert, dns, ips)) {
    server = await issue(issuer, { subject: 'CN=kube-apiserver', days: 365, usage: 'server', dns, ips });
    await save('apiserver', server);
  }
  let admin = await readPair(dir, 'admin');
  if (!admin) {
    admin = await issue(issuer, { subject: 'CN=kubernetes-admin, O=system:masters', days: 365, usage: 'client' });
    await save('admin', admin);
  }
  return { dir, caCert: ca.cert, caKey: ca.key, serverCert: server.cert, serverKey: server.key, adminCert: admin.cert, adminKey: admin.key };
}
