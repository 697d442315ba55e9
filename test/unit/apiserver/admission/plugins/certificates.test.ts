// CertificateApproval, CertificateSigning and CertificateSubjectRestriction: who may approve and
// sign for which signer, and no system:masters client certificates, in kube-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes, Authorizer } from '../../../../../src/apiserver/authz/attributes.ts';
import type { AdmissionAttributes, AdmissionDeps } from '../../../../../src/apiserver/admission/types.ts';
import { certificateApproval, certificateSigning, certificateSubjectRestriction, mayUseSigner } from '../../../../../src/apiserver/admission/plugins/certificates.ts';
import { createCsr } from '../../../../../src/pki/csr.ts';
import type { KubeObject } from '../../../../../src/api/object.ts';
import type { ResourceInfo } from '../../../../../src/schema/types.ts';

/** allows exactly the (verb, signer name) pairs given for signers */
function authorizer(allowed: string[]): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorize(a: Attributes) {
      asked.push(`${a.verb} ${a.resource} ${a.name}`);
      return { decision: allowed.includes(`${a.verb} ${a.name}`) && a.resource === 'signers' && a.apiGroup === 'certificates.k8s.io' ? 'allow' : 'no-opinion', reason: '' };
    },
  };
}

const deps = (allowed: string[]) => ({ authorizer: authorizer(allowed) }) as unknown as AdmissionDeps;
const jane = { name: 'jane', groups: ['system:authenticated'] };
const resource = { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' } as ResourceInfo;
const csr = (signerName: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'req' }, spec: { signerName, request: '' }, ...extra });
const attrs = (operation: AdmissionAttributes['operation'], subresource: string, object: KubeObject, oldObject?: KubeObject): AdmissionAttributes =>
  ({ operation, resource, subresource, namespace: '', name: object.metadata.name ?? '', object, oldObject, user: jane, dryRun: false, warn() {}, annotate() {} });

test('approve is checked on the signer name, then on its domain wildcard', () => {
  const exact = authorizer(['approve example.com/a']);
  assert.equal(mayUseSigner(exact, jane, 'approve', 'example.com/a'), true);
  assert.deepEqual(exact.asked, ['approve signers example.com/a']);
  const wild = authorizer(['approve example.com/*']);
  assert.equal(mayUseSigner(wild, jane, 'approve', 'example.com/a'), true);
  assert.deepEqual(wild.asked, ['approve signers example.com/a', 'approve signers example.com/*']);
  assert.equal(mayUseSigner(authorizer(['sign example.com/a']), jane, 'approve', 'example.com/a'), false);
});

test('CertificateApproval: approval without approve on the signer is a 403 with Kubernetes\' message', async () => {
  const plugin = certificateApproval(deps([]));
  assert.equal(plugin.name, 'CertificateApproval');
  await assert.rejects(async () => plugin.validate!(attrs('UPDATE', 'approval', csr('kubernetes.io/kube-apiserver-client'))), (err: { code: number; message: string }) => {
    assert.equal(err.code, 403);
    assert.equal(err.message, 'certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"');
    return true;
  });
  await certificateApproval(deps(['approve kubernetes.io/*'])).validate!(attrs('UPDATE', 'approval', csr('kubernetes.io/kube-apiserver-client')));
  // the resource itself and status are not its business
  await plugin.validate!(attrs('UPDATE', '', csr('kubernetes.io/kube-apiserver-client')));
});

test('CertificateSigning: setting the certificate needs sign; a status write that leaves it alone does not', async () => {
  const plugin = certificateSigning(deps([]));
  const old = csr('example.com/a');
  await plugin.validate!(attrs('UPDATE', 'status', csr('example.com/a', { status: { conditions: [] } }), old));
  await assert.rejects(async () => plugin.validate!(attrs('UPDATE', 'status', csr('example.com/a', { status: { certificate: 'eA==' } }), old)), /user not permitted to sign requests with signerName "example.com\/a"/);
  await certificateSigning(deps(['sign example.com/a'])).validate!(attrs('UPDATE', 'status', csr('example.com/a', { status: { certificate: 'eA==' } }), old));
});

test('CertificateSubjectRestriction: no kube-apiserver-client certificate may be asked for in system:masters', async () => {
  const plugin = certificateSubjectRestriction();
  const masters = Buffer.from((await createCsr({ commonName: 'eve', organizations: ['system:masters'] })).csr).toString('base64');
  const plain = Buffer.from((await createCsr({ commonName: 'eve', organizations: ['dev'] })).csr).toString('base64');
  await assert.rejects(async () => plugin.validate!(attrs('CREATE', '', { metadata: { name: 'm' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: masters } })),
    /certificatesigningrequests.certificates.k8s.io "m" is forbidden: use of kubernetes.io\/kube-apiserver-client signer with system:masters group is not allowed/);
  await plugin.validate!(attrs('CREATE', '', { metadata: { name: 'p' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: plain } }));
  await plugin.validate!(attrs('CREATE', '', { metadata: { name: 'o' }, spec: { signerName: 'example.com/other', request: masters } }));
});
