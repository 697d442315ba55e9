// serviceaccounts/<name>/token through the router, and the tokens it gives checked by TokenReview
// (both answered, neither stored).

import { registerAuthenticationReviews } from '../../../../src/apiserver/authn/reviews.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { setupAuthentication } from '../../../../src/apiserver/authn/setup.ts';

const iss = 'https://kubernetes.default.svc.cluster.local';
let api: TestApi;
let certDir: string;

before(async () => {
  api = await testApi();
  const auth = await setupAuthentication({ tokenCacheTtlMs: 0 }, { registry: api.deps.registry, catalog: api.deps.catalog, certDir: certDir = await mkdtemp(join(tmpdir(), 'tokens-tr-')), now: api.deps.now });
  api.deps.serviceAccountTokens = auth.serviceAccountTokens;
  api.deps.tokenAuthenticator = auth.tokens;
  registerAuthenticationReviews();
  await api.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } } });
  await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } } });
  await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } } });
});
after(async () => { await api.close(); await rm(certDir, { recursive: true, force: true }); });

const tokenRequest = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec });
const review = (token: string, audiences?: string[]) => api.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } } });

test('kubectl create token: a one-hour token for the API audience, answered with 201 and its expiry', async () => {
  const res = await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { body: tokenRequest() });
  assert.equal(res.status, 201, res.text());
  const body = res.json();
  assert.equal(body.kind, 'TokenRequest');
  assert.deepEqual(body.spec, { audiences: [iss], expirationSeconds: 3600, boundObjectRef: null });
  const now = api.deps.now();
  assert.equal(body.status.expirationTimestamp, new Date(now.getTime() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'));
  const claims = decodeJwt(body.status.token);
  assert.equal(claims.sub, 'system:serviceaccount:ns:default');
  assert.equal(claims.exp! - claims.iat!, 3600);
  const r = await review(body.status.token);
  assert.equal(r.status, 201);
  assert.equal(r.json().status.authenticated, true);
  assert.equal(r.json().status.user.username, 'system:serviceaccount:ns:default');
  assert.deepEqual(r.json().status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']);
  assert.deepEqual(r.json().status.audiences, [iss]);
});

test('lifetimes under ten minutes and mismatched names are refused in Kubernetes\' words; a missing service account is 404', async () => {
  const short = await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { body: tokenRequest({ expirationSeconds: 599 }) });
  assert.equal(short.status, 422);
  assert.equal(short.json().message, 'TokenRequest.authentication.k8s.io "default" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
  const named = await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { body: tokenRequest({}, { name: 'other' }) });
  assert.equal(named.json().message, 'TokenRequest.authentication.k8s.io "default" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
  const missing = await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts/nobody/token', { body: tokenRequest() });
  assert.equal(missing.status, 404);
  assert.equal(missing.json().message, 'serviceaccounts "nobody" not found');
  const longer = await api.request('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { body: tokenRequest({ expirationSeconds: 600, audiences: ['vault'] }) });
  assert.equal(longer.status, 201);
  assert.deepEqual(longer.json().spec.audiences, ['vault']);
  // a token for another audience is not one for the API server
  const r = await review(longer.json().status.token);
  assert.equal(r.json().status.authenticated, undefined);
  assert.equal(r.json().status.error, `token audiences ["vault"] is invalid for the target audiences ["${iss}"]`);
  assert.equal((await review(longer.json().status.token, ['vault'])).json().status.authenticated, true);
});

test('a pod-bound token: the pod must exist, run as the account and match the uid; deleting the pod ends the token', async () => {
  const created = await api.request('POST', '/api/v1/namespaces/ns/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(created.status, 201, created.text());
  const uid = created.json().metadata.uid;
  const bind = (sa: string, ref: Record<string, unknown>) => api.request('POST', `/api/v1/namespaces/ns/serviceaccounts/${sa}/token`, { body: tokenRequest({ boundObjectRef: { apiVersion: 'v1', ...ref } }) });
  const wrongSa = await bind('default', { kind: 'Pod', name: 'p' });
  assert.equal(wrongSa.status, 400);
  assert.equal(wrongSa.json().message, 'cannot bind token for serviceaccount "default" to pod running with different serviceaccount name.');
  const wrongUid = await bind('builder', { kind: 'Pod', name: 'p', uid: 'nope' });
  assert.equal(wrongUid.status, 409);
  assert.match(wrongUid.json().message, /the UID in the bound object reference \(nope\) does not match the UID in record/);
  assert.equal((await bind('builder', { kind: 'Pod', name: 'absent' })).json().message, 'pods "absent" not found');
  assert.equal((await bind('builder', { kind: 'ConfigMap', name: 'x' })).json().message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
  const ok = await bind('builder', { kind: 'Pod', name: 'p', uid });
  assert.equal(ok.status, 201, ok.text());
  const token = ok.json().status.token;
  const before = (await review(token)).json().status;
  assert.equal(before.authenticated, true);
  assert.deepEqual(before.user.extra['authentication.kubernetes.io/pod-name'], ['p']);
  assert.deepEqual(before.user.extra['authentication.kubernetes.io/pod-uid'], [uid]);
  await api.request('DELETE', '/api/v1/namespaces/ns/pods/p?gracePeriodSeconds=0');
  const afterDelete = (await review(token)).json().status;
  assert.equal(afterDelete.authenticated, undefined);
  assert.equal(afterDelete.error, 'service account token has been invalidated');
});

test('TokenReview needs a token; nothing is stored; an unknown token is not authenticated', async () => {
  const empty = await api.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} } });
  assert.equal(empty.status, 400);
  assert.equal(empty.json().message, 'token is required for TokenReview in authentication');
  const unknown = (await review('garbage')).json();
  assert.deepEqual(unknown.status, { user: {}, error: 'invalid bearer token' });
  assert.equal(unknown.metadata.name, undefined);
  assert.equal((await api.request('GET', '/apis/authentication.k8s.io/v1/tokenreviews')).status, 405);
});

test('SelfSubjectReview answers the caller', async () => {
  const res = await api.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  assert.equal(res.status, 201);
  assert.deepEqual({ ...res.json(), metadata: undefined }, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: undefined, status: { userInfo: { username: 'tester', groups: ['system:masters'] } } });
});
