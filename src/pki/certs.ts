// Making and checking X.509 certificates for the cluster: the CA, serving and client certificates.
// New keys are ECDSA P-256 (quick to make; Go's crypto/tls and Node's accept them). An existing CA
// key may also be RSA, so a CA brought from elsewhere (kubeadm makes RSA ones) can still sign.

import { KeyObject, X509Certificate as NodeCert, createPrivateKey } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import { isIP, isIPv4 } from 'node:net';
import { domainToASCII } from 'node:url';
import type * as X509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type SigningAlgorithm = webcrypto.Algorithm | webcrypto.EcdsaParams;

const subtle = globalThis.crypto.subtle;

let x509Lib: Promise<typeof X509> | undefined;

/**
 * The certificate builder, loaded on first use: it is a large library, and a server restarting
 * with certificates that are still good never needs it (checks use node:crypto alone).
 */
export function loadX509(): Promise<typeof X509> {
  return x509Lib ??= (async () => {
    await import('reflect-metadata'); // @peculiar/x509 resolves its parts through tsyringe, which needs it
    const lib = await import('@peculiar/x509');
    lib.cryptoProvider.set(globalThis.crypto);
    return lib;
  })();
}

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
export const DAY_MS = 24 * 3600 * 1000;
// certificates start an hour in the past so clients with a slightly slow clock accept them
const BACKDATE_MS = 3600 * 1000;

export interface CertAndKey {
  /** PEM certificate */
  cert: string;
  /** PEM PKCS#8 private key (-----BEGIN PRIVATE KEY-----) */
  key: string;
}

export interface CertRequest {
  commonName: string;
  organizations?: string[];
  days: number;
  usage: 'server' | 'client';
  dnsNames?: string[];
  ips?: string[];
}

/** a distinguished name as structured attributes, so commas or '=' in a value need no escaping */
export function distinguishedName(commonName: string, organizations: string[] = []): X509.JsonName {
  return [...organizations.map(o => ({ O: [o] })), { CN: [commonName] }];
}

// positive 128-bit serial: clear the top bit so DER does not read it as negative
export function serialNumber(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

export async function newKeyPair(): Promise<CryptoKeyPair> {
  return await subtle.generateKey(ecdsa, true, ['sign', 'verify']) as CryptoKeyPair;
}

export async function privateKeyPem(key: CryptoKey): Promise<string> {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }) as string;
}

export interface Signer { key: CryptoKey; algorithm: SigningAlgorithm }

/** reads a CA private key in any PEM form Node understands (PKCS#8, SEC1, PKCS#1) */
export async function importSigningKey(pem: string): Promise<Signer> {
  const nodeKey = createPrivateKey(pem);
  const der = nodeKey.export({ type: 'pkcs8', format: 'der' });
  if (nodeKey.asymmetricKeyType === 'ec') {
    const namedCurve = nodeKey.asymmetricKeyDetails?.namedCurve === 'secp384r1' ? 'P-384' : 'P-256';
    const hash = namedCurve === 'P-384' ? 'SHA-384' : 'SHA-256';
    const key = await subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']);
    return { key, algorithm: { name: 'ECDSA', hash } as webcrypto.EcdsaParams };
  }
  if (nodeKey.asymmetricKeyType === 'rsa') {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { key: await subtle.importKey('pkcs8', der, algorithm, false, ['sign']), algorithm };
  }
  throw new Error(`unsupported CA key type ${nodeKey.asymmetricKeyType}`);
}

export async function createCa(commonName: string, days: number): Promise<CertAndKey> {
  const x509 = await loadX509();
  const keys = await newKeyPair();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: distinguishedName(commonName),
    keys,
    signingAlgorithm: ecdsa,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + days * DAY_MS),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

/** a leaf certificate with a fresh key, signed by the CA */
export async function issueCert(ca: CertAndKey, req: CertRequest): Promise<CertAndKey> {
  const x509 = await loadX509();
  const signer = await importSigningKey(ca.key);
  const caCert = new x509.X509Certificate(ca.cert);
  const keys = await newKeyPair();
  const now = Date.now();
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([req.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  const names = [
    ...(req.dnsNames ?? []).map(value => ({ type: 'dns' as const, value })),
    ...(req.ips ?? []).map(value => ({ type: 'ip' as const, value })),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: distinguishedName(req.commonName, req.organizations),
    issuer: caCert.subject,
    publicKey: keys.publicKey,
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + req.days * DAY_MS),
    extensions,
  });
  return { cert: cert.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

export interface CertExpectations {
  /** the CA certificate that must have signed it */
  caCert: string;
  /** reissue when it expires sooner than this */
  renewBeforeMs: number;
  commonName?: string;
  organizations?: string[];
  dnsNames?: string[];
  ips?: string[];
}

/** why a stored certificate must be replaced, or undefined when it is still good */
export function certProblem(pair: CertAndKey, want: CertExpectations, now = Date.now()): string | undefined {
  let cert: NodeCert;
  let ca: NodeCert;
  try {
    cert = new NodeCert(pair.cert);
    ca = new NodeCert(want.caCert);
    if (!cert.checkPrivateKey(createPrivateKey(pair.key))) return 'key does not match certificate';
  } catch (err) {
    return `unreadable: ${(err as Error).message}`;
  }
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return 'not signed by the current CA';
  if (Date.parse(cert.validTo) - now < want.renewBeforeMs) return 'expires soon';
  // node's subject text escapes special characters; read the attributes structurally instead
  const subject = cert.toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>;
  const field = (name: string) => { const v = subject[name]; return v === undefined ? [] : Array.isArray(v) ? v : [v]; };
  if (want.commonName !== undefined && field('CN')[0] !== want.commonName) return 'common name changed';
  if (want.organizations && [...field('O')].sort().join('\n') !== [...want.organizations].sort().join('\n')) return 'organizations changed';
  const missingHost = (want.dnsNames ?? []).find(h => cert.checkHost(h, { subject: 'never', wildcards: false }) === undefined);
  if (missingHost) return `no subject alternative name ${missingHost}`;
  const missingIp = (want.ips ?? []).find(ip => cert.checkIP(ip) === undefined);
  if (missingIp) return `no subject alternative name ${missingIp}`;
  return undefined;
}

/** splits requested names into DNS names and IP addresses, dropping duplicates and unusable names */
export function splitHostsAndIps(hosts: string[], ips: string[]): { dnsNames: string[]; ips: string[] } {
  const dns = new Set<string>();
  const addrs = new Set<string>();
  for (const raw of [...hosts, ...ips]) {
    const value = raw.trim().replace(/^\[(.*)\]$/, '$1');
    if (!value) continue;
    if (isIP(value)) addrs.add(isIPv4(value) ? value : value.toLowerCase());
    else {
      // a SAN dNSName is ASCII; Go refuses a whole certificate with a malformed one
      const ascii = domainToASCII(value);
      if (/^[a-z0-9*._-]+$/.test(ascii)) dns.add(ascii);
    }
  }
  return { dnsNames: [...dns], ips: [...addrs] };
}
