import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionRequest, reviewVersion, verifyResponse } from '../../../../../../src/apiserver/admission/plugins/webhooks/review.ts';
import { rejection, failClosed, CallingWebhookError, dryRunUnsupported } from '../../../../../../src/apiserver/admission/plugins/webhooks/errors.ts';

const base = {
  uid: 'u-1',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subresource: '',
  requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
  operation: 'CREATE', name: 'web', namespace: 'dev',
  user: { name: 'jane', groups: ['dev', 'system:authenticated'], uid: '42', extra: { scopes: ['a'] } },
  object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
  options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', metadata: {} },
  dryRun: false,
};

test('the AdmissionRequest carries what kube-apiserver sends, empty optional fields left out', () => {
  const r = admissionRequest(base);
  assert.deepEqual(r, {
    uid: 'u-1', kind: base.kind, resource: base.resource, requestKind: base.requestKind, requestResource: base.requestResource,
    name: 'web', namespace: 'dev', operation: 'CREATE',
    userInfo: { username: 'jane', uid: '42', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } },
    object: base.object, oldObject: null, dryRun: false, options: base.options,
  });
  const sub = admissionRequest({ ...base, subresource: 'scale', name: '', namespace: '', object: undefined, options: undefined, dryRun: true });
  assert.equal(sub.subResource, 'scale');
  assert.equal(sub.requestSubResource, 'scale');
  assert.equal('name' in sub, false);
  assert.equal('namespace' in sub, false);
  assert.equal(sub.object, null);
  assert.equal(sub.options, null);
  assert.equal(sub.dryRun, true);
});

test('the review version is the webhook\'s first known one', () => {
  assert.equal(reviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(reviewVersion(['v1']), 'v1');
  assert.equal(reviewVersion(['v3']), undefined);
});

test('answers are checked in kube-apiserver\'s words', () => {
  const ok = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' };
  assert.throws(() => verifyResponse('v1', 'u-1', false, ok), /^Error: webhook response was absent$/);
  assert.throws(() => verifyResponse('v1', 'u-1', false, { ...ok, response: { uid: 'x', allowed: true } }), { message: 'expected response.uid="u-1", got "x"' });
  assert.throws(() => verifyResponse('v1', 'u-1', false, { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u-1' } }),
    { message: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview' });
  const patch = Buffer.from('[]').toString('base64');
  assert.throws(() => verifyResponse('v1', 'u-1', true, { ...ok, response: { uid: 'u-1', allowed: true, patch } }), { message: 'webhook returned response.patch but not response.patchType' });
  assert.throws(() => verifyResponse('v1', 'u-1', true, { ...ok, response: { uid: 'u-1', allowed: true, patchType: 'JSONPatch' } }), { message: 'webhook returned response.patchType but not response.patch' });
  assert.throws(() => verifyResponse('v1', 'u-1', false, { ...ok, response: { uid: 'u-1', allowed: true, patch, patchType: 'JSONPatch' } }), { message: 'validating webhook may not return response.patch' });
  const v = verifyResponse('v1', 'u-1', true, { ...ok, response: { uid: 'u-1', allowed: true, patch, patchType: 'JSONPatch', warnings: ['w1'], auditAnnotations: { k: 'v' } } });
  assert.deepEqual([v.allowed, v.patch?.toString(), v.patchType, v.warnings, v.auditAnnotations], [true, '[]', 'JSONPatch', ['w1'], { k: 'v' }]);
  // v1beta1 never checked the uid or the patch type
  const b = verifyResponse('v1beta1', 'u-1', true, { response: { uid: 'other', allowed: true, patch } });
  assert.equal(b.patchType, 'JSONPatch');
});

test('a refusal keeps the webhook\'s Status, its message prefixed', () => {
  const e = rejection('x.example.com', { code: 403, reason: 'Forbidden', message: 'no thanks' });
  assert.equal(e.status.message, 'admission webhook "x.example.com" denied the request: no thanks');
  assert.equal(e.status.code, 403);
  assert.equal(e.status.reason, 'Forbidden');
  const low = rejection('x.example.com', { code: 200, message: 'm' });
  assert.equal(low.status.code, 400);
  assert.equal(rejection('x.example.com', { reason: 'Invalid' }).status.message, 'admission webhook "x.example.com" denied the request: Invalid');
  const bare = rejection('x.example.com', undefined);
  assert.equal(bare.status.message, 'admission webhook "x.example.com" denied the request without explanation');
  assert.equal(bare.status.reason, undefined);
});

test('a failed call under failurePolicy Fail is a 500 naming the webhook', () => {
  const e = failClosed(new CallingWebhookError('x.example.com', 'failed to call webhook: Post "https://h/p?timeout=10s": context deadline exceeded'));
  assert.equal(e.status.code, 500);
  assert.equal(e.status.reason, 'InternalError');
  assert.equal(e.status.message, 'Internal error occurred: failed calling webhook "x.example.com": failed to call webhook: Post "https://h/p?timeout=10s": context deadline exceeded');
  assert.equal(dryRunUnsupported('x.example.com').status.message, 'admission webhook "x.example.com" does not support dry run');
});
