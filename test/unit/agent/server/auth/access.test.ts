import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Client } from '../../../../../src/client/rest.ts';
import { accessGate, configuredAccessGate } from '../../../../../src/agent/server/auth/access.ts';
import { bearerToken, requestAuthenticator } from '../../../../../src/agent/server/auth/authenticator.ts';
import { webhookAuthorizer } from '../../../../../src/agent/server/auth/authorizer.ts';

type Cert = { subject?: { CN?: string; O?: string | string[] }; ext_key_usage?: string[] };

/** a request as the HTTPS server hands it over: its TLS socket's certificate, headers, method, path */
function request(opts: { method?: string; url?: string; cert?: Cert; authorized?: boolean; authorization?: string }): IncomingMessage {
  const socket = { getPeerCertificate: () => opts.cert ?? {}, authorized: opts.authorized ?? !!opts.cert, authorizationError: opts.authorized === false ? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' : null };
  return { method: opts.method ?? 'GET', url: opts.url ?? '/containerLogs/default/p/c', socket, headers: opts.authorization ? { authorization: opts.authorization } : {} } as unknown as IncomingMessage;
}

/** an API server that answers reviews from tables, counting what it is asked */
function apiServer(tokens: Record<string, { username: string; groups: string[] }>, allowed: (user: string, subresource: string) => boolean | 'error') {
  const calls: Array<{ path: string; body: any }> = [];
  const client = {
    async create(path: string, body: any) {
      calls.push({ path, body });
      if (path.endsWith('/tokenreviews')) {
        const u = tokens[body.spec.token];
        return { ...body, status: u ? { authenticated: true, user: u } : { authenticated: false, error: 'invalid token' } };
      }
      const a = allowed(body.spec.user, body.spec.resourceAttributes.subresource);
      if (a === 'error') throw new Error('connection refused');
      return { ...body, status: a ? { allowed: true } : { allowed: false, reason: 'no RBAC policy matched' } };
    },
  } as unknown as Client;
  return { client, calls };
}

const settings = { authentication: { webhook: { enabled: true, cacheTTL: '2m' }, anonymous: { enabled: false } }, authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m', cacheUnauthorizedTTL: '30s' } } };

test('no credentials: 401 Unauthorized, as the kubelet answers; anonymous on: system:anonymous is authorized', async () => {
  const api = apiServer({}, user => user === 'system:anonymous');
  assert.deepEqual(await configuredAccessGate('n1', settings, api.client)(request({})), { ok: false, status: 401, body: 'Unauthorized', why: undefined });
  const anon = await configuredAccessGate('n1', { ...settings, authentication: { ...settings.authentication, anonymous: { enabled: true } } }, api.client)(request({}));
  assert.deepEqual(anon, { ok: true, user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
});

test('a certificate the client CA does not vouch for, or a bad token, is 401 even with anonymous on', async () => {
  const api = apiServer({}, () => true);
  const gate = configuredAccessGate('n1', { ...settings, authentication: { ...settings.authentication, anonymous: { enabled: true } } }, api.client);
  const bad = await gate(request({ cert: { subject: { CN: 'mallory' } }, authorized: false }));
  assert.equal(bad.ok, false);
  assert.equal(!bad.ok && bad.status, 401);
  const token = await gate(request({ authorization: 'Bearer nope' }));
  assert.deepEqual(!token.ok && [token.status, token.why], [401, 'invalid bearer token']);
  const serverCert = await gate(request({ cert: { subject: { CN: 'web' }, ext_key_usage: ['1.3.6.1.5.5.7.3.1'] } }));
  assert.equal(!serverCert.ok && serverCert.status, 401);
});

test('a client certificate is its CN and O; the access review carries the node attributes and the 403 names them', async () => {
  const api = apiServer({}, user => user === 'kube-apiserver-kubelet-client');
  const gate = configuredAccessGate('node-1', settings, api.client);
  const bob = await gate(request({ cert: { subject: { CN: 'bob', O: 'devs' } } }));
  assert.deepEqual(bob, { ok: false, status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[proxy])\n' });
  assert.deepEqual(api.calls[0]!.body.spec, { resourceAttributes: { namespace: '', verb: 'get', group: '', version: 'v1', resource: 'nodes', subresource: 'proxy', name: 'node-1' }, user: 'bob', groups: ['devs', 'system:authenticated'] });
  const apiserver = await gate(request({ method: 'POST', url: '/exec/default/p/c', cert: { subject: { CN: 'kube-apiserver-kubelet-client', O: ['system:masters'] } } }));
  assert.equal(apiserver.ok, true);
  assert.equal(api.calls.at(-1)!.body.spec.resourceAttributes.verb, 'create');
  const pods = await gate(request({ url: '/pods', cert: { subject: { CN: 'bob' } } }));
  assert.equal(!pods.ok && pods.body, 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[pods proxy])\n');
});

test('the fine-grained subresource is asked first and proxy admits too', async () => {
  const api = apiServer({}, (_u, sub) => sub === 'proxy');
  const r = await configuredAccessGate('n1', settings, api.client)(request({ url: '/healthz', cert: { subject: { CN: 'ops' } } }));
  assert.equal(r.ok, true);
  assert.deepEqual(api.calls.map(c => c.body.spec.resourceAttributes.subresource), ['healthz', 'proxy']);
});

test('bearer tokens go through a TokenReview, cached for cacheTTL', async () => {
  let now = 0;
  const api = apiServer({ 'tok-1': { username: 'system:serviceaccount:ops:reader', groups: ['system:serviceaccounts', 'system:authenticated'] } }, () => true);
  const authn = requestAuthenticator({ anonymous: false, tokenReviews: { client: api.client, cacheTtlMs: 120_000 }, now: () => now });
  const first = await authn(request({ authorization: 'bearer tok-1' }));
  assert.deepEqual(first.user, { name: 'system:serviceaccount:ops:reader', uid: undefined, groups: ['system:serviceaccounts', 'system:authenticated'], extra: undefined });
  await authn(request({ authorization: 'Bearer tok-1' }));
  assert.equal(api.calls.length, 1);
  now = 120_001;
  await authn(request({ authorization: 'Bearer tok-1' }));
  assert.equal(api.calls.length, 2);
  assert.deepEqual(api.calls[0]!.body, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'tok-1' } });
  assert.equal(bearerToken('Basic abc'), undefined);
  assert.equal(bearerToken('Bearer'), undefined);
});

test('access reviews are cached: allowed for cacheAuthorizedTTL, refused for cacheUnauthorizedTTL', async () => {
  let now = 0;
  let allow = false;
  const api = apiServer({}, () => allow);
  const authorize = webhookAuthorizer({ client: api.client, cacheAuthorizedTtlMs: 300_000, cacheUnauthorizedTtlMs: 30_000, now: () => now });
  const bob = { name: 'bob', groups: ['system:authenticated'] };
  const a = { verb: 'get', resource: 'nodes', subresource: 'log', name: 'n1' };
  assert.equal(await authorize(bob, a), 'no-opinion');
  allow = true;
  now = 29_000;
  assert.equal(await authorize(bob, a), 'no-opinion', 'still the cached refusal');
  now = 30_001;
  assert.equal(await authorize(bob, a), 'allow');
  allow = false;
  now = 300_000;
  assert.equal(await authorize(bob, a), 'allow', 'still the cached permission');
  now = 330_002;
  assert.equal(await authorize(bob, a), 'no-opinion');
  assert.equal(api.calls.length, 3);
});

test('an access review that cannot be made is a 500 in the kubelet words, not an allow or a deny', async () => {
  const api = apiServer({}, () => 'error');
  const r = await configuredAccessGate('n1', settings, api.client)(request({ url: '/stats/summary', cert: { subject: { CN: 'bob' } } }));
  assert.deepEqual(r, { ok: false, status: 500, body: 'Authorization error (user=bob, verb=get, resource=nodes, subresource=stats)', why: 'connection refused' });
});

test('AlwaysAllow lets any authenticated user in; webhook modes without an API client refuse to start', async () => {
  const gate = accessGate('n1', requestAuthenticator({ anonymous: false }), async () => 'allow');
  assert.equal((await gate(request({ cert: { subject: { CN: 'bob' } } }))).ok, true);
  assert.throws(() => configuredAccessGate('n1', settings, undefined), /^Error: no client provided, cannot use webhook authentication$/);
  assert.throws(() => configuredAccessGate('n1', { authorization: { mode: 'Webhook' } }, undefined), /^Error: no client provided, cannot use webhook authorization$/);
  assert.doesNotThrow(() => configuredAccessGate('n1', { authentication: { webhook: { enabled: false } }, authorization: { mode: 'AlwaysAllow' } }, undefined));
});
