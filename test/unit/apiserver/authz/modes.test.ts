// --authorization-mode: the modes kube-apiserver accepts, refused in its words otherwise, and
// AlwaysAllow/AlwaysDeny as its built-in authorizers decide (AlwaysDeny has no opinion: a later
// mode may allow, and a refusal carries its reason).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysAllow, alwaysDeny, createChain, parseAuthorizationModes } from '../../../../src/apiserver/authz/chain.ts';
import { forbiddenError } from '../../../../src/apiserver/authz/forbidden.ts';
import type { Attributes } from '../../../../src/apiserver/authz/attributes.ts';

const jane: Attributes = { user: { name: 'jane', groups: ['system:authenticated'] }, verb: 'list', isResourceRequest: true, path: '/api/v1/namespaces/dev/pods', apiGroup: '', resource: 'pods', subresource: '', namespace: 'dev', name: '' };

test('modes are parsed as kube-apiserver validates them', () => {
  assert.deepEqual(parseAuthorizationModes('Node,RBAC'), ['Node', 'RBAC']);
  assert.deepEqual(parseAuthorizationModes(' AlwaysDeny , AlwaysAllow '), ['AlwaysDeny', 'AlwaysAllow']);
  assert.throws(() => parseAuthorizationModes(''), { message: 'at least one authorization-mode must be passed' });
  assert.throws(() => parseAuthorizationModes('RBAC,ABAC'), { message: 'authorization-mode "ABAC" is not a valid mode' });
  assert.throws(() => parseAuthorizationModes('RBAC,Node,RBAC'), { message: 'authorization-mode "RBAC" has mode specified more than once' });
});

test('AlwaysAllow allows; AlwaysDeny refuses only when nothing after it allows, with its reason', () => {
  assert.equal(createChain([alwaysAllow]).authorize(jane).decision, 'allow');
  const denyOnly = createChain([alwaysDeny]).authorize(jane);
  assert.deepEqual(denyOnly, { decision: 'no-opinion', reason: 'Everything is forbidden.' });
  assert.equal(forbiddenError(jane, denyOnly.reason).message, 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "dev": Everything is forbidden.');
  assert.equal(createChain([alwaysDeny, alwaysAllow]).authorize(jane).decision, 'allow', 'a later mode still decides');
  assert.equal(createChain([alwaysDeny]).authorize({ ...jane, user: { name: 'admin', groups: ['system:masters'] } }).decision, 'allow');
  assert.deepEqual(createChain([alwaysDeny]).rulesFor!(jane.user, 'dev'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  assert.equal(createChain([alwaysAllow]).rulesFor!(jane.user, 'dev').resourceRules[0]!.verbs[0], '*');
});
