// CertificateSigningRequest validation in kube-apiserver's words: the request, usages, signer
// name and lifetime on create; conditions and the issued certificate on every write; which
// conditions and certificate a write may change depending on where it comes in (the resource,
// status or approval).

import { X509Certificate } from 'node:crypto';
import type { FieldError } from '../../api/status.ts';
import { dns1123Label, dns1123Subdomain } from '../../api/names.ts';
import { firstPemBlock } from '../../pki/csr.ts';

export interface CsrCondition { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }
export interface CsrSpec { request?: string; signerName?: string; usages?: string[]; expirationSeconds?: number }
export interface CsrLike { spec?: CsrSpec; status?: { conditions?: CsrCondition[]; certificate?: string } }

export const validUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
const trueOnly = new Set(['Approved', 'Denied', 'Failed']);
const quoted = (xs: string[]) => xs.map(x => JSON.stringify(x)).join(', ');

/** signerName: `<domain>/<path>`, the domain DNS labels with a dot, the path DNS subdomains */
export function validateSignerName(field: string, name: string | undefined): FieldError[] {
  if (!name) return [{ type: 'FieldValueRequired', field, detail: 'signerName must be provided' }];
  const segments = name.split('/');
  if (segments.length !== 2) return [{ type: 'FieldValueInvalid', field, value: name, detail: 'must be a fully qualified domain and path of the form \'example.com/signer-name\'' }];
  const [domain, path] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push({ type: 'FieldValueTooLong', field, value: domain, detail: 'must have at most 253 bytes' });
  const labels = domain.split('.');
  for (const l of labels) {
    const bad = dns1123Label(l);
    if (bad.length) { errs.push(...bad.map(b => ({ type: 'FieldValueInvalid' as const, field, value: domain, detail: `validating label ${JSON.stringify(l)}: ${b}` }))); break; }
  }
  if (labels.length < 2) errs.push({ type: 'FieldValueInvalid', field, value: domain, detail: 'should be a domain with at least two segments separated by dots' });
  for (const l of path.split('.')) {
    const bad = dns1123Subdomain(l);
    if (bad.length) { errs.push(...bad.map(b => ({ type: 'FieldValueInvalid' as const, field, value: path, detail: `validating label ${JSON.stringify(l)}: ${b}` }))); break; }
  }
  if (name.length > 571) errs.push({ type: 'FieldValueTooLong', field, value: name, detail: 'must have at most 571 bytes' });
  return errs;
}

/** why status.certificate is not a list of PEM certificates, as kube-apiserver says it */
export function certificateProblem(pem: string): string | undefined {
  let rest = pem;
  let blocks = 0;
  for (;;) {
    const block = firstPemBlock(rest);
    if (!block) break;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (block.headers) return 'no PEM block headers are permitted';
    blocks++;
    try { new X509Certificate(block.der); } catch { return 'x509: malformed certificate'; }
    rest = rest.slice(rest.indexOf(`-----END ${block.type}-----`) + `-----END ${block.type}-----`.length);
  }
  return blocks === 0 ? 'must contain at least one CERTIFICATE PEM block' : undefined;
}

/** the spec checks of a new request; `requestError` is what parsing spec.request said */
export function validateCsrSpec(spec: CsrSpec, requestError: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (requestError !== undefined) errs.push({ type: 'FieldValueInvalid', field: 'spec.request', value: spec.request ?? '', detail: requestError });
  const usages = spec.usages ?? [];
  if (usages.length === 0) errs.push({ type: 'FieldValueRequired', field: 'spec.usages', detail: 'usages must be provided' });
  usages.forEach((u, i) => {
    if (!validUsages.includes(u)) errs.push({ type: 'FieldValueNotSupported', field: `spec.usages[${i}]`, value: u, detail: `supported values: ${quoted(validUsages)}` });
  });
  usages.forEach((u, i) => { if (usages.indexOf(u) < i) errs.push({ type: 'FieldValueDuplicate', field: `spec.usages[${i}]`, value: u }); });
  if (spec.signerName === 'kubernetes.io/legacy-unknown') {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.signerName', value: spec.signerName, detail: 'the legacy signerName is not allowed via this API version' });
  } else {
    errs.push(...validateSignerName('spec.signerName', spec.signerName));
  }
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: spec.expirationSeconds, detail: 'may not specify a duration less than 600 seconds (10 minutes)' });
  }
  return errs;
}

/** the status checks every write runs: condition types and statuses, the certificate's form */
export function validateCsrStatus(csr: CsrLike, old?: CsrLike): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false, denied = false;
  (csr.status?.conditions ?? []).forEach((c, i) => {
    const f = `status.conditions[${i}]`;
    if (!c.type) errs.push({ type: 'FieldValueRequired', field: `${f}.type` });
    const allowed = trueOnly.has(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push({ type: 'FieldValueRequired', field: `${f}.status` });
    else if (!allowed.includes(c.status)) errs.push({ type: 'FieldValueNotSupported', field: `${f}.status`, value: c.status, detail: `supported values: ${quoted(allowed)}` });
    if (c.type === 'Approved') { approved = true; if (denied) errs.push({ type: 'FieldValueInvalid', field: `${f}.type`, value: c.type, detail: 'Approved and Denied conditions are mutually exclusive' }); }
    if (c.type === 'Denied') { denied = true; if (approved) errs.push({ type: 'FieldValueInvalid', field: `${f}.type`, value: c.type, detail: 'Approved and Denied conditions are mutually exclusive' }); }
    if (seen.has(c.type)) errs.push({ type: 'FieldValueDuplicate', field: `${f}.type`, value: c.type });
    seen.add(c.type);
  });
  const cert = csr.status?.certificate ?? '';
  // an unchanged certificate is not checked again (data written before the check existed)
  if (cert && cert !== (old?.status?.certificate ?? '')) {
    const problem = certificateProblem(Buffer.from(cert, 'base64').toString('latin1'));
    if (problem) errs.push({ type: 'FieldValueInvalid', field: 'status.certificate', value: '<certificate data>', detail: problem });
  }
  return errs;
}

export type CsrWritePath = 'resource' | 'status' | 'approval';

const ofType = (csr: CsrLike, t: string) => (csr.status?.conditions ?? []).filter(c => c.type === t);

/** what an update may change through `path`: approval conditions only through approval, the certificate only through status, once */
export function validateCsrUpdate(csr: CsrLike, old: CsrLike, path: CsrWritePath): FieldError[] {
  const errs = validateCsrStatus(csr, old);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (ofType(csr, t).length < ofType(old, t).length) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', detail: `updates may not remove a condition of type ${JSON.stringify(t)}` });
  }
  if (path !== 'approval') {
    for (const t of ['Approved', 'Denied']) {
      const before = ofType(old, t), after = ofType(csr, t);
      if (after.length > before.length) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', detail: `updates may not add a condition of type ${JSON.stringify(t)}` });
      else if (after.length === before.length && JSON.stringify(after) !== JSON.stringify(before)) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', detail: `updates may not modify a condition of type ${JSON.stringify(t)}` });
    }
  }
  const cert = csr.status?.certificate ?? '', oldCert = old.status?.certificate ?? '';
  if (cert !== oldCert) {
    if (path !== 'status') errs.push({ type: 'FieldValueForbidden', field: 'status.certificate', detail: 'updates may not set certificate content' });
    else if (oldCert) errs.push({ type: 'FieldValueForbidden', field: 'status.certificate', detail: 'updates may not modify existing certificate content' });
  }
  return errs;
}
