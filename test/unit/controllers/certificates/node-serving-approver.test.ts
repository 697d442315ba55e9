// Which kubelet-serving requests `orch up` approves for its own node: the node's own, for its own
// name, within the signer's rules, naming only addresses the Node reports.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCsr, parseCsr, type ParsedCsr } from '../../../../src/pki/csr.ts';
import { servingApprovalProblem } from '../../../../src/controllers/certificates/node-serving-approver.ts';
import type { Csr } from '../../../../src/controllers/certificates/csr.ts';

const node = { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'Hostname', address: 'n1' }] } };

async function ask(subject: { commonName?: string; organizations?: string[]; dnsNames?: string[]; ips?: string[] } = {}): Promise<ParsedCsr> {
  const { csr } = await createCsr({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'], ips: ['10.0.0.2'], ...subject });
  const parsed = await parseCsr(csr);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
}

function csr(spec: Partial<Csr['spec']> = {}): Csr {
  return { metadata: { name: 'csr-x' }, spec: { request: '', signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'], username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], ...spec } };
}

test('the node\'s own request for its own names is approved', async () => {
  assert.equal(servingApprovalProblem(csr(), await ask(), 'n1', node), undefined);
  assert.equal(servingApprovalProblem(csr(), await ask({ dnsNames: [] }), 'n1', node), undefined, 'fewer names than the node has');
  assert.equal(servingApprovalProblem(csr({ usages: ['digital signature', 'key encipherment', 'server auth'] }), await ask(), 'n1', node), undefined, 'an RSA key\'s usages');
});

test('anything else stays pending, and says why', async () => {
  const req = await ask();
  assert.equal(servingApprovalProblem(csr({ signerName: 'kubernetes.io/kube-apiserver-client-kubelet' }), req, 'n1', node), 'not a kubernetes.io/kubelet-serving request');
  assert.equal(servingApprovalProblem(csr({ username: 'system:node:n2' }), req, 'n1', node), 'not asked by system:node:n1 in system:nodes', 'another node asking');
  assert.equal(servingApprovalProblem(csr({ username: 'system:node:n1', groups: ['system:authenticated'] }), req, 'n1', node), 'not asked by system:node:n1 in system:nodes', 'a user named like the node, not in system:nodes');
  assert.equal(servingApprovalProblem(csr(), await ask({ commonName: 'system:node:n2' }), 'n1', node), 'subject common name is not system:node:n1');
  assert.equal(servingApprovalProblem(csr(), await ask({ organizations: ['system:masters'] }), 'n1', node), 'subject organization is not system:nodes');
  assert.equal(servingApprovalProblem(csr({ usages: ['digital signature', 'server auth', 'client auth'] }), req, 'n1', node), 'usages did not match [digital signature key encipherment server auth]');
  assert.equal(servingApprovalProblem(csr(), await ask({ dnsNames: ['n1', 'kubernetes.default.svc'] }), 'n1', node), 'DNS names not among the node\'s addresses: kubernetes.default.svc');
  assert.equal(servingApprovalProblem(csr(), await ask({ ips: ['10.0.0.2', '10.96.0.1'] }), 'n1', node), 'IP addresses not among the node\'s addresses: 10.96.0.1');
  assert.equal(servingApprovalProblem(csr(), req, 'n1', undefined), 'node n1 is not registered');
  assert.equal(servingApprovalProblem(csr(), req, 'n1', { status: {} }), 'DNS names not among the node\'s addresses: n1', 'addresses not reported yet');
});
