// The agent's service account tokens: reused until 80 % of their lifetime, kept through an API
// outage while still valid, dropped once expired.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTokenManager, type TokenAsk } from '../../../../../src/agent/pods/volumes/token-manager.ts';

const ask: TokenAsk = { namespace: 'ns', serviceAccount: 'default', audiences: [], expirationSeconds: 1000, pod: { name: 'p', uid: 'u1' } };

test('a token is reused until 80 % of its lifetime has passed, then asked for again', async () => {
  let now = 0;
  let n = 0;
  let fail = false;
  const asked: TokenAsk[] = [];
  const m = createTokenManager(async a => {
    asked.push(a);
    if (fail) throw new Error('connection refused');
    return { token: `t${++n}`, expirationTimestamp: new Date(now + a.expirationSeconds * 1000).toISOString() };
  }, { now: () => now, random: () => 0 });
  assert.equal(await m.token(ask), 't1');
  now = 799_000;
  assert.equal(await m.token(ask), 't1');
  now = 800_001;
  assert.equal(await m.token(ask), 't2', 'past 80 %: rotated');
  assert.equal(await m.token({ ...ask, audiences: ['vault'] }), 't3', 'another audience: another token');
  assert.equal(await m.token({ ...ask, pod: { name: 'p', uid: 'u2' } }), 't4', 'another pod: another token');
  now = 800_001 + 900_000; // t2 at 90 %: due, but the API server is away
  fail = true;
  assert.equal(await m.token(ask), 't2', 'kept while still valid');
  now = 800_001 + 1_000_001;
  await assert.rejects(m.token(ask), /connection refused/);
  assert.equal(m.size(), 0, 'expired tokens dropped');
});

test('a long-lived token is still renewed after 24 hours', async () => {
  let now = 0;
  let n = 0;
  const m = createTokenManager(async a => ({ token: `t${++n}`, expirationTimestamp: new Date(now + a.expirationSeconds * 1000).toISOString() }), { now: () => now, random: () => 0 });
  const day = { ...ask, expirationSeconds: 7 * 24 * 3600 };
  assert.equal(await m.token(day), 't1');
  now = 24 * 3600_000 + 1;
  assert.equal(await m.token(day), 't2');
});
