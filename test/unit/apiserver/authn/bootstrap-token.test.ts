// Bootstrap tokens: <id>.<secret> against bootstrap-token-<id> in kube-system.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapTokenAuthenticator } from '../../../../src/apiserver/authn/bootstrap-token.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const now = new Date('2026-06-01T00:00:00Z');

function secret(data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
  const base: Record<string, string> = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data };
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' }, type: 'bootstrap.kubernetes.io/token', data: Object.fromEntries(Object.entries(base).filter(([, v]) => v !== '').map(([k, v]) => [k, b64(v)])), ...extra } as KubeObject;
}

function auth(s: KubeObject | undefined) {
  return bootstrapTokenAuthenticator(async name => (s && name === s.metadata.name ? s : undefined), () => now);
}

test('a valid token is system:bootstrap:<id> in system:bootstrappers and its extra groups', async () => {
  const r = await auth(secret({ 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token', expiration: '2026-06-02T00:00:00Z' })).authenticate('abcdef.0123456789abcdef', []);
  assert.deepEqual(r?.user, { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] });
  assert.equal(r?.expiresAt, Date.parse('2026-06-02T00:00:00Z'));
});

test('wrong secret, expired, not for authentication, wrong type, being deleted, bad extra group, no secret: not accepted', async () => {
  const token = 'abcdef.0123456789abcdef';
  const cases: Array<[string, KubeObject | undefined]> = [
    ['no secret', undefined],
    ['wrong secret part', secret({ 'token-secret': 'ffffffffffffffff' })],
    ['expired', secret({ expiration: '2026-05-31T23:59:59Z' })],
    ['not for authentication', secret({ 'usage-bootstrap-authentication': 'false' })],
    ['usage missing', secret({ 'usage-bootstrap-authentication': '' })],
    ['wrong type', secret({}, { type: 'Opaque' } as never)],
    ['being deleted', secret({}, { metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system', deletionTimestamp: '2026-05-01T00:00:00Z' } })],
    ['extra group outside system:bootstrappers:', secret({ 'auth-extra-groups': 'system:masters' })],
    ['token-id differs', secret({ 'token-id': 'zzzzzz' })],
  ];
  for (const [why, s] of cases) assert.equal(await auth(s).authenticate(token, []), undefined, why);
});

test('tokens of another shape are not bootstrap tokens', async () => {
  const a = auth(secret({}));
  for (const t of ['abcdef0123456789abcdef', 'ABCDEF.0123456789abcdef', 'abcdef.0123456789abcde', 'eyJhbGciOi.x.y']) assert.equal(await a.authenticate(t, []), undefined, t);
});
