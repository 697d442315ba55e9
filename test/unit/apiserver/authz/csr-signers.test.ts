// Who may approve and sign for which signer, and the system:masters restriction, in
// kube-apiserver's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes, Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import { csrWriteCheck, mayUseSigner } from '../../../../src/apiserver/authz/csr-signers.ts';
import { createCsr } from '../../../../src/pki/csr.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

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

const jane = { name: 'jane', groups: ['system:authenticated'] };
const csr = (signerName: string, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'req' }, spec: { signerName, request: '' }, ...extra });

test('approve is checked on the signer name, then on its domain wildcard', () => {
  const exact = authorizer(['approve example.com/a']);
  assert.equal(mayUseSigner(exact, jane, 'approve', 'example.com/a'), true);
  assert.deepEqual(exact.asked, ['approve signers example.com/a']);
  const wild = authorizer(['approve example.com/*']);
  assert.equal(mayUseSigner(wild, jane, 'approve', 'example.com/a'), true);
  assert.deepEqual(wild.asked, ['approve signers example.com/a', 'approve signers example.com/*']);
  assert.equal(mayUseSigner(authorizer(['sign example.com/a']), jane, 'approve', 'example.com/a'), false);
});

test('approval without approve on the signer is a 403 with Kubernetes\' message', async () => {
  const check = csrWriteCheck(jane, 'approval', 'update', authorizer([]))!;
  await assert.rejects(check(csr('kubernetes.io/kube-apiserver-client')), (err: { code: number; message: string }) => {
    assert.equal(err.code, 403);
    assert.equal(err.message, 'certificatesigningrequests.certificates.k8s.io "req" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"');
    return true;
  });
  await csrWriteCheck(jane, 'approval', 'patch', authorizer(['approve kubernetes.io/*']))!(csr('kubernetes.io/kube-apiserver-client'));
});

test('setting the certificate needs sign; a status write that leaves it alone does not', async () => {
  const check = csrWriteCheck(jane, 'status', 'update', authorizer([]))!;
  const old = csr('example.com/a');
  await check(csr('example.com/a', { status: { conditions: [] } }), old);
  await assert.rejects(check(csr('example.com/a', { status: { certificate: 'eA==' } }), old), /user not permitted to sign requests with signerName "example.com\/a"/);
  await csrWriteCheck(jane, 'status', 'update', authorizer(['sign example.com/a']))!(csr('example.com/a', { status: { certificate: 'eA==' } }), old);
  assert.equal(csrWriteCheck(jane, '', 'update', authorizer([])), undefined, 'the resource itself changes neither');
});

test('no kube-apiserver-client certificate may be asked for in system:masters', async () => {
  const check = csrWriteCheck(jane, '', 'create', authorizer([]))!;
  const masters = Buffer.from((await createCsr({ commonName: 'eve', organizations: ['system:masters'] })).csr).toString('base64');
  const plain = Buffer.from((await createCsr({ commonName: 'eve', organizations: ['dev'] })).csr).toString('base64');
  await assert.rejects(check({ metadata: { name: 'm' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: masters } }),
    /certificatesigningrequests.certificates.k8s.io "m" is forbidden: use of kubernetes.io\/kube-apiserver-client signer with system:masters group is not allowed/);
  await check({ metadata: { name: 'p' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: plain } });
  await check({ metadata: { name: 'o' }, spec: { signerName: 'example.com/other', request: masters } });
});
