// A node's client certificate through the certificates API, as the kubelet's certificate manager
// gets one: a new key, a CSR for system:node:<name> in system:nodes to the
// kube-apiserver-client-kubelet signer, then waiting until it is issued (or denied, or failed).

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

export async function requestNodeClientCertificate(client: Client, nodeName: string, log: Logger, opts: { timeoutMs?: number; expirationSeconds?: number } = {}): Promise<IssuedCertificate> {
  const { csr, key } = await createCsr({ commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] });
  const created = await client.create<Csr>(csrs, {
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest',
    metadata: { generateName: 'node-csr-' },
    spec: {
      request: Buffer.from(csr).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      // an ECDSA key: no key encipherment
      usages: ['digital signature', 'client auth'],
      ...(opts.expirationSeconds ? { expirationSeconds: opts.expirationSeconds } : {}),
    },
  });
  const name = created.metadata.name;
  log.info('waiting for the client certificate', { csr: name });
  const deadline = Date.now() + (opts.timeoutMs ?? 15 * 60_000);
  for (;;) {
    const current = await client.get<Csr>(`${csrs}/${encodeURIComponent(name)}`);
    const refused = refusal(current);
    if (refused) throw new Error(refused);
    if (current.status?.certificate) return { cert: Buffer.from(current.status.certificate, 'base64').toString('utf8'), key };
    if (Date.now() > deadline) throw new Error(`timed out waiting for certificate signing request ${name} to be signed`);
    await new Promise(r => setTimeout(r, POLL_MS));
  }
}
