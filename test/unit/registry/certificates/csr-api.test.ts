// CertificateSigningRequests through the router and handlers: what kube-apiserver records,
// refuses and lets change, through the resource, `status` and `approval`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { createCsr } from '../../../../src/pki/csr.ts';

const base = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function withApi(fn: (api: TestApi, request: string) => Promise<void>) {
  const api = await testApi();
  try { await fn(api, b64((await createCsr({ commonName: 'jane', organizations: ['dev'] })).csr)); } finally { await api.close(); }
}

const csr = (name: string, request: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...spec },
});

test('create records the requester, drops a status sent with it and keeps expirationSeconds', async () => {
  await withApi(async (api, request) => {
    const res = await api.request('POST', base, { body: { ...csr('a', request, { username: 'mallory', groups: ['system:masters'], expirationSeconds: 600 }), status: { certificate: b64('x') } } });
    assert.equal(res.status, 201, res.text());
    const o = res.json();
    assert.equal(o.spec.username, 'tester');
    assert.deepEqual(o.spec.groups, ['system:masters']);
    assert.equal(o.spec.expirationSeconds, 600);
    assert.deepEqual(o.status, {}, 'an empty status, as Go writes it');
  });
});

test('bad requests are refused with kube-apiserver\'s field errors', async () => {
  await withApi(async (api, request) => {
    const notPem = await api.request('POST', base, { body: csr('b', b64('hello'), { usages: [] }) });
    assert.equal(notPem.status, 422);
    assert.match(notPem.json().message, /spec\.request: Invalid value: .*: PEM block type must be CERTIFICATE REQUEST/);
    assert.match(notPem.json().message, /spec\.usages: Required value: usages must be provided/);
    const signer = await api.request('POST', base, { body: csr('c', request, { signerName: 'example' }) });
    assert.equal(signer.json().message, 'CertificateSigningRequest.certificates.k8s.io "c" is invalid: spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\'');
    const none = await api.request('POST', base, { body: csr('d', request, { signerName: '' }) });
    assert.match(none.json().message, /spec\.signerName: Required value: signerName must be provided/);
    const short = await api.request('POST', base, { body: csr('e', request, { expirationSeconds: 599 }) });
    assert.match(short.json().message, /spec\.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds \(10 minutes\)/);
    const usage = await api.request('POST', base, { body: csr('f', request, { usages: ['client auth', 'flying', 'client auth'] }) });
    assert.match(usage.json().message, /spec\.usages\[1\]: Unsupported value: "flying": supported values: "any", /);
    assert.match(usage.json().message, /spec\.usages\[2\]: Duplicate value: "client auth"/);
  });
});

test('the spec never changes; approval only through approval, the certificate only through status and once', async () => {
  await withApi(async (api, request) => {
    const created = (await api.request('POST', base, { body: csr('g', request) })).json();
    const put = await api.request('PUT', `${base}/g`, { body: { ...created, spec: { ...created.spec, signerName: 'example.com/other' } } });
    assert.equal(put.status, 200);
    assert.equal(put.json().spec.signerName, 'kubernetes.io/kube-apiserver-client');

    const approvedCondition = { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' };
    const viaStatus = await api.request('PUT', `${base}/g/status`, { body: { ...created, status: { conditions: [approvedCondition] } } });
    assert.equal(viaStatus.status, 422);
    assert.match(viaStatus.json().message, /status\.conditions: Forbidden: updates may not add a condition of type "Approved"/);

    const approved = await api.request('PUT', `${base}/g/approval`, { body: { ...created, status: { conditions: [approvedCondition] } } });
    assert.equal(approved.status, 200, approved.text());
    const c = approved.json().status.conditions[0];
    assert.ok(c.lastUpdateTime && c.lastTransitionTime, 'times filled in');

    const both = await api.request('PUT', `${base}/g/approval`, { body: { ...approved.json(), status: { conditions: [c, { type: 'Denied', status: 'True' }] } } });
    assert.match(both.json().message, /status\.conditions\[1\]\.type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive/);

    const certViaApproval = await api.request('PUT', `${base}/g/approval`, { body: { ...approved.json(), status: { ...approved.json().status, certificate: b64('x') } } });
    assert.equal(certViaApproval.json().status.certificate, undefined, 'approval keeps the certificate as stored');

    const junk = await api.request('PUT', `${base}/g/status`, { body: { ...approved.json(), status: { ...approved.json().status, certificate: b64('not a cert') } } });
    assert.match(junk.json().message, /status\.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block/);

    const removing = await api.request('PUT', `${base}/g/approval`, { body: { ...approved.json(), status: { conditions: [] } } });
    assert.match(removing.json().message, /status\.conditions: Forbidden: updates may not remove a condition of type "Approved"/);
  });
});
