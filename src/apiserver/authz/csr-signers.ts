// Kubernetes' three certificate admission checks, which authorize per signer: approving or
// denying a CSR needs `approve` on `signers` (CertificateApproval), issuing its certificate
// through status needs `sign` (CertificateSigning), each for the signer's name or `<domain>/*`;
// and no kube-apiserver-client certificate may be asked for in system:masters
// (CertificateSubjectRestriction). Refusals are 403s in kube-apiserver's words.

import { forbidden } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { parseCsr } from '../../pki/csr.ts';
import type { User } from '../user.ts';
import type { Authorizer } from './attributes.ts';

const csrResource = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests' };
type Csr = KubeObject & { spec?: { signerName?: string; request?: string }; status?: { conditions?: Array<{ type: string }>; certificate?: string } };

/** whether `user` may `verb` the signer `signerName`, by its own name or its domain's wildcard */
export function mayUseSigner(authz: Authorizer, user: User, verb: 'approve' | 'sign', signerName: string): boolean {
  const ask = (name: string) => authz.authorize({ user, verb, isResourceRequest: true, path: '', apiGroup: 'certificates.k8s.io', resource: 'signers', subresource: '', namespace: '', name }).decision === 'allow';
  if (ask(signerName)) return true;
  const slash = signerName.indexOf('/');
  return slash > 0 && ask(`${signerName.slice(0, slash)}/*`);
}

/** the approval and signing checks of a write of a CSR, or undefined when none applies */
export function csrWriteCheck(user: User, subresource: string, verb: string, authz: Authorizer): ((obj: KubeObject, old?: KubeObject) => Promise<void>) | undefined {
  if (verb === 'create' && !subresource) {
    return async obj => {
      const spec = (obj as Csr).spec;
      if (spec?.signerName !== 'kubernetes.io/kube-apiserver-client') return;
      const parsed = await parseCsr(Buffer.from(spec.request ?? '', 'base64').toString('latin1'));
      if ('error' in parsed) return; // validation reports it
      if (parsed.organizations.includes('system:masters')) {
        throw forbidden(csrResource, obj.metadata.name ?? '', 'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
      }
    };
  }
  if (verb !== 'update' && verb !== 'patch') return undefined;
  if (subresource === 'approval') {
    return async obj => {
      const signer = (obj as Csr).spec?.signerName ?? '';
      if (!mayUseSigner(authz, user, 'approve', signer)) throw forbidden(csrResource, obj.metadata.name ?? '', `user not permitted to approve requests with signerName ${JSON.stringify(signer)}`);
    };
  }
  if (subresource === 'status') {
    return async (obj, old) => {
      // only a write that sets the certificate signs anything
      if (((obj as Csr).status?.certificate ?? '') === ((old as Csr | undefined)?.status?.certificate ?? '')) return;
      const signer = (obj as Csr).spec?.signerName ?? '';
      if (!mayUseSigner(authz, user, 'sign', signer)) throw forbidden(csrResource, obj.metadata.name ?? '', `user not permitted to sign requests with signerName ${JSON.stringify(signer)}`);
    };
  }
  return undefined;
}
