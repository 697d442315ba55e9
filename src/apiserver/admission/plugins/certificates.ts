// Kubernetes' three certificate admission plugins, which authorize per signer:
// CertificateApproval (adding Approved or Denied through `approval` needs `approve` on `signers`),
// CertificateSigning (setting the certificate through `status` needs `sign`), each for the
// signer's name or its `<domain>/*`; and CertificateSubjectRestriction (no
// kube-apiserver-client certificate asked for in system:masters). Refusals are 403s in
// kube-apiserver's words.

import type { KubeObject } from '../../../api/object.ts';
import { parseCsr } from '../../../pki/csr.ts';
import type { Authorizer } from '../../authz/attributes.ts';
import type { User } from '../../user.ts';
import { admissionForbidden } from '../errors.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';

type Csr = KubeObject & { spec?: { signerName?: string; request?: string }; status?: { certificate?: string } };

const isCsr = (a: AdmissionAttributes) => a.resource.group === 'certificates.k8s.io' && a.resource.resource === 'certificatesigningrequests';

/** whether `user` may `verb` the signer `signerName`, by its own name or its domain's wildcard */
export function mayUseSigner(authz: Authorizer | undefined, user: User, verb: 'approve' | 'sign', signerName: string): boolean {
  if (!authz) return true;
  const ask = (name: string) => authz.authorize({ user, verb, isResourceRequest: true, path: '', apiGroup: 'certificates.k8s.io', resource: 'signers', subresource: '', namespace: '', name }).decision === 'allow';
  if (ask(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && ask(`${signerName.slice(0, slash)}/*`);
}

export function certificateApproval(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    validate(a) {
      if (!isCsr(a) || a.operation !== 'UPDATE' || a.subresource !== 'approval') return;
      const signer = (a.object as Csr).spec?.signerName ?? '';
      if (!mayUseSigner(deps.authorizer, a.user, 'approve', signer)) throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signer)}`);
    },
  };
}

export function certificateSigning(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    validate(a) {
      if (!isCsr(a) || a.operation !== 'UPDATE' || a.subresource !== 'status') return;
      // only a write that sets the certificate signs anything
      if (((a.object as Csr).status?.certificate ?? '') === ((a.oldObject as Csr | undefined)?.status?.certificate ?? '')) return;
      const signer = (a.object as Csr).spec?.signerName ?? '';
      if (!mayUseSigner(deps.authorizer, a.user, 'sign', signer)) throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signer)}`);
    },
  };
}

export function certificateSubjectRestriction(): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    async validate(a) {
      if (!isCsr(a) || a.operation !== 'CREATE' || a.subresource) return;
      const spec = (a.object as Csr).spec;
      if (spec?.signerName !== 'kubernetes.io/kube-apiserver-client') return;
      const parsed = await parseCsr(Buffer.from(spec.request ?? '', 'base64').toString('latin1'));
      if ('error' in parsed) return; // validation reports it
      if (parsed.organizations.includes('system:masters')) throw admissionForbidden(a, 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
    },
  };
}
