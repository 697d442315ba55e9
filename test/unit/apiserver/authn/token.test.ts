// The bearer token chain: order, system:authenticated, errors, the cache and the header forms.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerToken, cachedTokenAuthenticator, TokenRejected, unionTokenAuthenticator, type TokenAuthenticator } from '../../../../src/apiserver/authn/token.ts';
import { createRequestAuthenticator, webSocketToken } from '../../../../src/apiserver/authn/request.ts';
import { StatusError } from '../../../../src/api/status.ts';

const fixed = (token: string, name: string): TokenAuthenticator => ({
  async authenticate(t) { return t === token ? { user: { name, groups: ['g'] } } : undefined; },
});
const failing = (message: string): TokenAuthenticator => ({ async authenticate() { throw new Error(message); } });

test('the first authenticator that knows the token names the user, who is also in system:authenticated', async () => {
  const chain = unionTokenAuthenticator([fixed('a', 'alice'), fixed('a', 'shadowed'), fixed('b', 'bob')]);
  assert.deepEqual((await chain.authenticate('a', []))?.user, { name: 'alice', groups: ['g', 'system:authenticated'] });
  assert.equal((await chain.authenticate('b', []))?.user.name, 'bob');
  assert.equal(await chain.authenticate('c', []), undefined);
});

test('a failing authenticator does not stop the chain; when none accepts, the reasons are the error', async () => {
  const chain = unionTokenAuthenticator([failing('expired'), fixed('a', 'alice')]);
  assert.equal((await chain.authenticate('a', []))?.user.name, 'alice');
  await assert.rejects(chain.authenticate('x', []), (e: Error) => e instanceof TokenRejected && e.message === 'expired');
  await assert.rejects(unionTokenAuthenticator([failing('one'), failing('two')]).authenticate('x', []), { message: '[one, two]' });
});

test('the cache remembers a success for its TTL but never past the token\'s expiry, and failures not at all by default', async () => {
  let calls = 0;
  let now = 1_000_000;
  const inner: TokenAuthenticator = { async authenticate(t) { calls++; return t === 'ok' ? { user: { name: 'u', groups: [] }, expiresAt: 1_005_000 } : undefined; } };
  const cached = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, now: () => now });
  await cached.authenticate('ok', []);
  await cached.authenticate('ok', []);
  assert.equal(calls, 1);
  await cached.authenticate('ok', ['other-audience']); // another question: not the same entry
  assert.equal(calls, 2);
  now += 5_000; // the token expired before the TTL ran out
  await cached.authenticate('ok', []);
  assert.equal(calls, 3);
  await cached.authenticate('bad', []);
  await cached.authenticate('bad', []);
  assert.equal(calls, 5);
});

test('the cache remembers failures when asked to', async () => {
  let calls = 0;
  const cached = cachedTokenAuthenticator({ async authenticate() { calls++; throw new Error('nope'); } }, { failureTtlMs: 1000 });
  await assert.rejects(cached.authenticate('t', []), { message: 'nope' });
  await assert.rejects(cached.authenticate('t', []), { message: 'nope' });
  assert.equal(calls, 1);
});

test('Authorization: Bearer in any case; no token, other schemes: no credential', () => {
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('bearer  abc '), 'abc');
  assert.equal(bearerToken('Basic abc'), undefined);
  assert.equal(bearerToken('Bearer '), undefined);
  assert.equal(bearerToken(undefined), undefined);
});

test('a WebSocket client may send its token as a subprotocol', () => {
  const headers = { upgrade: 'websocket', 'sec-websocket-protocol': `v5.channel.k8s.io, base64url.bearer.authorization.k8s.io.${Buffer.from('tok').toString('base64url')}` };
  assert.equal(webSocketToken(headers), 'tok');
  assert.equal(webSocketToken({ ...headers, upgrade: undefined }), undefined);
});

test('requests: certificate first; an unknown token is 401 Unauthorized, never anonymous', async () => {
  const auth = createRequestAuthenticator(() => undefined, unionTokenAuthenticator([fixed('good', 'jane')]));
  assert.equal((await auth(undefined, undefined, { authorization: 'Bearer good' }))?.name, 'jane');
  assert.equal(await auth(undefined, undefined, {}), undefined);
  await assert.rejects(auth(undefined, undefined, { authorization: 'Bearer bad' }), (e: unknown) => e instanceof StatusError && e.code === 401 && e.message === 'Unauthorized');
  const withCert = createRequestAuthenticator(() => ({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }), unionTokenAuthenticator([fixed('good', 'jane')]));
  assert.equal((await withCert({} as never, undefined, { authorization: 'Bearer bad' }))?.name, 'admin');
});
