// What each of kube-controller-manager's signers accepts, in its words: a request that breaks its
// signer's rules gets a Failed condition (reason SignerValidationFailure) with this message.

import type { ParsedCsr } from '../../pki/csr.ts';

export const kubeApiserverClient = 'kubernetes.io/kube-apiserver-client';
export const kubeApiserverClientKubelet = 'kubernetes.io/kube-apiserver-client-kubelet';
export const kubeletServing = 'kubernetes.io/kubelet-serving';
export const signerNames = [kubeApiserverClient, kubeApiserverClientKubelet, kubeletServing];

const sameSet = (a: string[], b: string[]) => new Set(a).size === new Set(b).size && b.every(x => a.includes(x));
// Go prints a sorted list with %v: [a b c]
const goList = (xs: string[]) => `[${[...xs].sort().join(' ')}]`;

const kubeletClientUsages = ['digital signature', 'key encipherment', 'client auth'];
const kubeletServingUsages = ['digital signature', 'key encipherment', 'server auth'];

/** a kubelet's client certificate: system:node:<name> in exactly system:nodes, no alternative names */
export function kubeletClientProblem(req: ParsedCsr, usages: string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emails.length) return 'Email subjectAltNames are not allowed';
  if (req.ips.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  // key encipherment only makes sense for RSA keys, so it may be left out
  if (!sameSet(usages, kubeletClientUsages) && !sameSet(usages, ['digital signature', 'client auth'])) return `usages did not match ${goList(kubeletClientUsages)}`;
  return undefined;
}

/** a kubelet's serving certificate: system:node:<name> in system:nodes, with a DNS or IP name */
export function kubeletServingProblem(req: ParsedCsr, usages: string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.dnsNames.length && !req.ips.length) return 'DNS or IP subjectAltName is required';
  if (req.emails.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, kubeletServingUsages) && !sameSet(usages, ['digital signature', 'server auth'])) return `usages did not match ${goList(kubeletServingUsages)}`;
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** any client certificate: client auth required, only signature and key encipherment besides */
export function apiserverClientProblem(usages: string[]): string | undefined {
  for (const u of usages) {
    if (u !== 'digital signature' && u !== 'key encipherment' && u !== 'client auth') return `invalid usage for client certificate: ${u}`;
  }
  if (!usages.includes('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
}

/** why `signerName`'s signer refuses the request, or undefined when it signs it */
export function signerProblem(signerName: string, req: ParsedCsr, usages: string[]): string | undefined {
  switch (signerName) {
    case kubeApiserverClientKubelet: return kubeletClientProblem(req, usages);
    case kubeletServing: return kubeletServingProblem(req, usages);
    case kubeApiserverClient: return apiserverClientProblem(usages);
    default: return `unrecognized signerName: ${JSON.stringify(signerName)}`;
  }
}

/**
 * The lifetime of a certificate: the --cluster-signing-duration, or the request's
 * expirationSeconds when shorter, never under 10 minutes (twice the backdating).
 */
export function signingDurationMs(maxMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return maxMs;
  const asked = expirationSeconds * 1000;
  return asked > maxMs ? maxMs : Math.max(asked, 10 * 60_000);
}
