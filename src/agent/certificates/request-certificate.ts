// A node's certificates through the certificates API, as the kubelet's certificate manager gets
// them: a new key, a CSR (for the client certificate: system:node:<name> in system:nodes to the
// kube-apiserver-client-kubelet signer; for the serving one, see serving-manager.ts), then
// waiting until it is issued (or denied, or failed).

import type { Logger } from '../../api/log.ts';
import type { Client } from '../../client/rest.ts';
import { createCsr } from '../../pki/csr.ts';

const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const POLL_MS = 200;

interface Csr {
  metadata: { name: string };
  status?: { certificate?: string; conditions?: Array<{ type: string; reason?: string; message?: string }> };
}

export interface IssuedCertificate { cert: string; key: string }

/** why the request will never be issued, in the kubelet's words, or undefined while it may be */
export function refusal(csr: Csr): string | undefined {
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Denied') return `certificate signing request ${csr.metadata.name} is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`;
    if (c.type === 'Failed') return `certificate signing request ${csr.metadata.name} failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`;
  }
  return undefined;
}

/** what the node asks to be certified as: its subject, alternative names, signer and usages */
export interface CertificateAsk {
  commonName: string;
  organizations: string[];
  dnsNames?: string[];
  ips?: string[];
  signerName: string;
  usages: string[];
  /** the CSR's generateName */
  namePrefix: string;
}

export interface RequestOptions {
  timeoutMs?: number;
  expirationSeconds?: number;
  /** stops the wait (the thing asked for is no longer wanted) */
  signal?: AbortSignal;
}

export function requestNodeClientCertificate(client: Client, nodeName: string, log: Logger, opts: RequestOptions = {}): Promise<IssuedCertificate> {
  return requestCertificate(client, {
    commonName: `system:node:${nodeName}`, organizations: ['system:nodes'],
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    // an ECDSA key: no key encipherment
    usages: ['digital signature', 'client auth'],
    namePrefix: 'node-csr-',
  }, log, opts);
}

/** a new key and a CSR for it, then the wait until the certificate is issued (or refused) */
export async function requestCertificate(client: Client, ask: CertificateAsk, log: Logger, opts: RequestOptions = {}): Promise<IssuedCertificate> {
  const { csr, key } = await createCsr({ commonName: ask.commonName, organizations: ask.organizations, dnsNames: ask.dnsNames, ips: ask.ips });
  const created = await client.create<Csr>(csrs, {
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest',
    metadata: { generateName: ask.namePrefix },
    spec: {
      request: Buffer.from(csr).toString('base64'),
      signerName: ask.signerName,
      usages: ask.usages,
      ...(opts.expirationSeconds ? { expirationSeconds: opts.expirationSeconds } : {}),
    },
  });
  const name = created.metadata.name;
  log.info('waiting for the certificate', { csr: name, signer: ask.signerName });
  const deadline = Date.now() + (opts.timeoutMs ?? 15 * 60_000);
  for (;;) {
    if (opts.signal?.aborted) throw new Error(`stopped waiting for certificate signing request ${name}`);
    const current = await client.get<Csr>(`${csrs}/${encodeURIComponent(name)}`);
    const refused = refusal(current);
    if (refused) throw new Error(refused);
    if (current.status?.certificate) return { cert: Buffer.from(current.status.certificate, 'base64').toString('utf8'), key };
    if (Date.now() > deadline) throw new Error(`timed out waiting for certificate signing request ${name} to be signed`);
    await new Promise(r => setTimeout(r, POLL_MS));
  }
}
