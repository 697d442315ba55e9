// PKCS#10 certificate signing requests: read and checked as kube-apiserver reads `spec.request`
// (the first PEM block, of type CERTIFICATE REQUEST, with a valid self-signature), made by a node
// agent for its own key, and signed by the cluster CA for the signers of the controller manager.

import { X509Certificate as NodeCert } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { importSigningKey, loadX509, newKeyPair, privateKeyPem, serialNumber, type CertAndKey } from './certs.ts';

/** what the signers and the approver read from a request */
export interface ParsedCsr {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ips: string[];
  emails: string[];
  uris: string[];
  /** 'ec' or 'rsa' (Kubernetes' kubelet asks for key encipherment only with RSA keys) */
  keyType: string;
}

/** the first PEM block of `text`, as Go's pem.Decode finds it (text before it is skipped) */
export function firstPemBlock(text: string): { type: string; der: Buffer; headers: boolean } | undefined {
  const m = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return undefined;
  const body = m[2]!;
  const headers = /^[^\r\n:]+:/.test(body);
  return { type: m[1]!, der: Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64'), headers };
}

/** the request's subjectAltName extension (asked for in its extensionRequest attribute) */
function subjectAltNames(req: X509.Pkcs10CertificateRequest): X509.SubjectAlternativeNameExtension | undefined {
  return req.extensions.find(e => e.type === '2.5.29.17') as X509.SubjectAlternativeNameExtension | undefined;
}

function sanOf(names: ReadonlyArray<{ type: string; value: string }>, type: string): string[] {
  return names.filter(n => n.type === type).map(n => n.value);
}

/**
 * Reads a PEM certificate request and checks its signature; the error is worded as Go's
 * ParseCSR and CheckSignature word theirs, since kube-apiserver reports them as they are.
 */
export async function parseCsr(pem: string): Promise<ParsedCsr | { error: string }> {
  const block = firstPemBlock(pem);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  const x509 = await loadX509();
  let req;
  try {
    req = new x509.Pkcs10CertificateRequest(block.der);
  } catch {
    return { error: 'x509: malformed certificate request' };
  }
  const keyType = (req.publicKey.algorithm as { name?: string }).name === 'ECDSA' ? 'ec' : (req.publicKey.algorithm as { name?: string }).name?.startsWith('RSA') ? 'rsa' : 'other';
  let ok: boolean;
  try {
    ok = await req.verify();
  } catch {
    return { error: 'x509: cannot verify signature: algorithm unimplemented' };
  }
  if (!ok) return { error: keyType === 'rsa' ? 'crypto/rsa: verification error' : 'x509: ECDSA verification failure' };
  const names = subjectAltNames(req)?.names.items ?? [];
  return {
    commonName: req.subjectName.getField('CN')[0] ?? '',
    organizations: req.subjectName.getField('O'),
    dnsNames: sanOf(names, 'dns'),
    ips: sanOf(names, 'ip'),
    emails: sanOf(names, 'email'),
    uris: sanOf(names, 'url'),
    keyType,
  };
}

/** a new ECDSA P-256 key and a request for it (what a kubelet's certificate manager sends) */
export async function createCsr(subject: { commonName: string; organizations?: string[]; dnsNames?: string[]; ips?: string[] }): Promise<{ csr: string; key: string }> {
  const x509 = await loadX509();
  const keys = await newKeyPair();
  const names = [...(subject.dnsNames ?? []).map(value => ({ type: 'dns' as const, value })), ...(subject.ips ?? []).map(value => ({ type: 'ip' as const, value }))];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...(subject.organizations ?? []).map(o => ({ O: [o] })), { CN: [subject.commonName] }],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } as import('node:crypto').webcrypto.EcdsaParams,
    extensions: names.length ? [new x509.SubjectAlternativeNameExtension(names)] : [],
  });
  return { csr: csr.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

const keyUsageBits: Record<string, string> = {
  'signing': 'digitalSignature', 'digital signature': 'digitalSignature', 'content commitment': 'nonRepudiation',
  'key encipherment': 'keyEncipherment', 'key agreement': 'keyAgreement', 'data encipherment': 'dataEncipherment',
  'cert sign': 'keyCertSign', 'crl sign': 'cRLSign', 'encipher only': 'encipherOnly', 'decipher only': 'decipherOnly',
};
const extKeyUsages: Record<string, string> = {
  'any': '2.5.29.37.0', 'server auth': '1.3.6.1.5.5.7.3.1', 'client auth': '1.3.6.1.5.5.7.3.2', 'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4', 's/mime': '1.3.6.1.5.5.7.3.4', 'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6', 'ipsec user': '1.3.6.1.5.5.7.3.7', 'timestamping': '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9', 'microsoft sgc': '1.3.6.1.4.1.311.10.3.3', 'netscape sgc': '2.16.840.1.113730.4.1',
};

// Kubernetes' signing policy: backdated 5 minutes for clocks a little behind; a short
// certificate (under 8 hours) keeps exactly the lifetime asked, a longer one gains the backdate
const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * 3600_000;

/**
 * Signs a request with the CA for `ttlMs`, with the subject and alternative names it asks for and
 * the key usages of `usages`; never beyond the CA's own expiry.
 */
export async function signCsr(ca: CertAndKey, pem: string, usages: string[], ttlMs: number, now = Date.now()): Promise<string> {
  const x509 = await loadX509();
  const block = firstPemBlock(pem);
  if (!block) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const req = new x509.Pkcs10CertificateRequest(block.der);
  const caCert = new x509.X509Certificate(ca.cert);
  const signer = await importSigningKey(ca.key);
  let bits = 0;
  const ext: string[] = [];
  for (const u of usages) {
    if (keyUsageBits[u]) bits |= x509.KeyUsageFlags[keyUsageBits[u] as keyof typeof x509.KeyUsageFlags];
    else if (extKeyUsages[u]) ext.push(extKeyUsages[u]);
    else throw new Error(`unrecognized usage: ${u}`);
  }
  const extensions: X509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
  if (bits) extensions.push(new x509.KeyUsagesExtension(bits, true));
  if (ext.length) extensions.push(new x509.ExtendedKeyUsageExtension([...new Set(ext)]));
  extensions.push(await x509.AuthorityKeyIdentifierExtension.create(caCert, false));
  const san = subjectAltNames(req);
  if (san && san.names.items.length) extensions.push(new x509.SubjectAlternativeNameExtension(san.names.toJSON()));
  const notBefore = now - BACKDATE_MS;
  const caNotAfter = Date.parse(new NodeCert(ca.cert).validTo);
  const notAfter = Math.min(caNotAfter, ttlMs < SHORT_MS ? notBefore + ttlMs : now + ttlMs);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: req.subjectName,
    issuer: caCert.subject,
    publicKey: req.publicKey,
    signingKey: signer.key,
    signingAlgorithm: signer.algorithm,
    notBefore: new Date(notBefore),
    notAfter: new Date(notAfter),
    extensions,
  });
  return cert.toString('pem');
}
