// Each signer's rules and messages, the lifetime it signs for, and the approver's decisions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { apiserverClientProblem, kubeletClientProblem, kubeletServingProblem, signerProblem, signingDurationMs } from '../../../../src/controllers/certificates/signer-rules.ts';
import { approved, recognizersFor, undecided } from '../../../../src/controllers/certificates/approver.ts';
import { wantsSigning } from '../../../../src/controllers/certificates/signing-controller.ts';
import type { Csr } from '../../../../src/controllers/certificates/csr.ts';
import type { ParsedCsr } from '../../../../src/pki/csr.ts';
import { createCa } from '../../../../src/pki/certs.ts';
import { createCsr, parseCsr, signCsr } from '../../../../src/pki/csr.ts';

const req = (over: Partial<ParsedCsr> = {}): ParsedCsr => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ips: [], emails: [], uris: [], keyType: 'ec', ...over });
const csr = (over: Partial<Csr['spec']> = {}, status?: Csr['status']): Csr => ({ metadata: { name: 'c' }, spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], username: 'system:node:n1', ...over }, status });

test('kube-apiserver-client-kubelet: system:node:<name> in system:nodes, no SANs, kubelet client usages', () => {
  assert.equal(kubeletClientProblem(req(), ['digital signature', 'client auth']), undefined);
  assert.equal(kubeletClientProblem(req(), ['client auth', 'key encipherment', 'digital signature']), undefined);
  assert.equal(kubeletClientProblem(req({ organizations: ['system:nodes', 'x'] }), ['digital signature', 'client auth']), 'subject organization is not system:nodes');
  assert.equal(kubeletClientProblem(req({ dnsNames: ['a'] }), ['digital signature', 'client auth']), 'DNS subjectAltNames are not allowed');
  assert.equal(kubeletClientProblem(req({ ips: ['10.0.0.1'] }), ['digital signature', 'client auth']), 'IP subjectAltNames are not allowed');
  assert.equal(kubeletClientProblem(req({ commonName: 'jane' }), ['digital signature', 'client auth']), 'subject common name does not begin with system:node:');
  assert.equal(kubeletClientProblem(req(), ['client auth']), 'usages did not match [client auth digital signature key encipherment]');
});

test('kubelet-serving: needs a DNS or IP name and server usages', () => {
  assert.equal(kubeletServingProblem(req({ dnsNames: ['n1'] }), ['digital signature', 'server auth']), undefined);
  assert.equal(kubeletServingProblem(req(), ['digital signature', 'server auth']), 'DNS or IP subjectAltName is required');
  assert.equal(kubeletServingProblem(req({ ips: ['10.0.0.1'], emails: ['a@b'] }), ['digital signature', 'server auth']), 'Email subjectAltNames are not allowed');
  assert.equal(kubeletServingProblem(req({ ips: ['10.0.0.1'] }), ['server auth']), 'usages did not match [digital signature key encipherment server auth]');
});

test('kube-apiserver-client: client auth required, nothing beyond signature and encipherment', () => {
  assert.equal(apiserverClientProblem(['client auth']), undefined);
  assert.equal(apiserverClientProblem(['digital signature']), 'missing required usage for client certificate: client auth');
  assert.equal(apiserverClientProblem(['client auth', 'server auth']), 'invalid usage for client certificate: server auth');
  assert.equal(signerProblem('example.com/x', req(), []), 'unrecognized signerName: "example.com/x"');
});

test('lifetime: the shorter of the maximum and expirationSeconds, at least 10 minutes', () => {
  const year = 365 * 24 * 3600_000;
  assert.equal(signingDurationMs(year, undefined), year);
  assert.equal(signingDurationMs(year, 3600), 3600_000);
  assert.equal(signingDurationMs(3600_000, 7200), 3600_000);
  assert.equal(signingDurationMs(year, 60), 600_000);
});

test('a signed certificate has the request\'s subject, the usages asked and the lifetime', async () => {
  const ca = await createCa('test-ca', 10);
  const { csr: pem } = await createCsr({ commonName: 'system:node:n1', organizations: ['system:nodes'] });
  const parsed = await parseCsr(pem);
  assert.ok(!('error' in parsed));
  const now = Date.now();
  const cert = new X509Certificate(await signCsr(ca, pem, ['digital signature', 'client auth'], 600_000, now));
  assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:n1');
  assert.ok(cert.checkIssued(new X509Certificate(ca.cert)));
  assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  // Date in validTo has second precision
  assert.ok(Math.abs(Date.parse(cert.validTo) - Date.parse(cert.validFrom) - 600_000) < 2000, 'a short certificate lives exactly as long as asked');
  const long = new X509Certificate(await signCsr(ca, pem, ['client auth'], 20 * 365 * 24 * 3600_000, now));
  assert.equal(long.validTo, new X509Certificate(ca.cert).validTo, 'never beyond the CA');
});

test('which requests the signer and the approver take up', () => {
  const approvedC = { conditions: [{ type: 'Approved', status: 'True' }] };
  assert.equal(wantsSigning(csr({}, approvedC)), true);
  assert.equal(wantsSigning(csr()), false, 'not approved');
  assert.equal(wantsSigning(csr({}, { ...approvedC, certificate: 'eA==' })), false, 'already signed');
  assert.equal(wantsSigning(csr({}, { conditions: [...approvedC.conditions, { type: 'Failed', status: 'True' }] })), false, 'failed');
  assert.equal(wantsSigning(csr({ signerName: 'example.com/x' }, approvedC)), false, 'not ours');
  assert.equal(undecided(csr()), true);
  assert.equal(undecided(csr({}, { conditions: [{ type: 'Denied', status: 'True' }] })), false);
});

test('the approver asks selfnodeclient first for a node renewing its own, nodeclient otherwise, nothing for others', () => {
  const usages = ['digital signature', 'client auth'];
  assert.deepEqual(recognizersFor(csr({ usages }), req()).map(r => r.subresource), ['selfnodeclient', 'nodeclient']);
  assert.deepEqual(recognizersFor(csr({ usages, username: 'system:bootstrap:abcdef' }), req()).map(r => r.subresource), ['nodeclient']);
  assert.deepEqual(recognizersFor(csr({ usages, signerName: 'kubernetes.io/kube-apiserver-client' }), req()), []);
  assert.deepEqual(recognizersFor(csr({ usages: ['client auth'] }), req()), [], 'not a well-formed kubelet client request');
  const a = approved(csr(), 'Auto approving kubelet client certificate after SubjectAccessReview.', new Date('2026-01-01T00:00:00Z'));
  assert.deepEqual(a.status?.conditions, [{ type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.', lastUpdateTime: '2026-01-01T00:00:00Z' }]);
});
