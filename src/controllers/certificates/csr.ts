// Reading CertificateSigningRequests for the certificate controllers: their conditions, their
// request, and the API paths their writes go to.

import { parseCsr, type ParsedCsr } from '../../pki/csr.ts';
import type { CertificatesV1CertificateSigningRequest } from '../../schema/generated/types.ts';

export type Csr = CertificatesV1CertificateSigningRequest & { metadata: NonNullable<CertificatesV1CertificateSigningRequest['metadata']> };

export const csrCollection = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
export const csrPath = (name: string, sub?: string) => `${csrCollection}/${encodeURIComponent(name)}${sub ? `/${sub}` : ''}`;

export function hasTrueCondition(csr: Csr, type: string): boolean {
  return (csr.status?.conditions ?? []).some(c => c.type === type && c.status === 'True');
}

/** approved and not denied, as certificates.IsCertificateRequestApproved reads it */
export function isApproved(csr: Csr): boolean {
  const types = (csr.status?.conditions ?? []).map(c => c.type);
  return types.includes('Approved') && !types.includes('Denied');
}

/** the parsed spec.request, or the parse error */
export async function requestOf(csr: Csr): Promise<ParsedCsr | { error: string }> {
  return parseCsr(Buffer.from(csr.spec.request ?? '', 'base64').toString('latin1'));
}
