import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RbacIndex } from '../../../../src/apiserver/authz/rbac-index.ts';
import { createChain } from '../../../../src/apiserver/authz/chain.ts';
import type { Attributes, Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import { rbacDecision } from '../../../../src/apiserver/authz/rbac.ts';

const rbac = 'rbac.authorization.k8s.io';
const authorizerOf = (index: RbacIndex): Authorizer => ({ authorize: a => rbacDecision(index, a) });
const attrs = (user: string, groups: string[], over: Partial<Attributes> = {}): Attributes => ({ user: { name: user, groups }, verb: 'list', isResourceRequest: true, path: '', apiGroup: '', resource: 'pods', subresource: '', namespace: 'dev', name: '', ...over });

function seeded(): RbacIndex {
  const ix = new RbacIndex();
  ix.apply('Role', { metadata: { name: 'reader', namespace: 'dev' }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }] }, false);
  ix.apply('ClusterRole', { metadata: { name: 'nodes' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] }, false);
  ix.apply('RoleBinding', { metadata: { name: 'b', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', name: 'robot' }] }, false);
  ix.apply('ClusterRoleBinding', { metadata: { name: 'ops-nodes' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'nodes' }, subjects: [{ kind: 'Group', name: 'ops' }] }, false);
  return ix;
}

test('a RoleBinding grants in its namespace only; users, groups and service accounts are matched', () => {
  const a = authorizerOf(seeded());
  assert.equal(a.authorize(attrs('jane', [])).decision, 'allow');
  assert.equal(a.authorize(attrs('jane', [], { namespace: 'prod' })).decision, 'no-opinion');
  assert.equal(a.authorize(attrs('jane', [], { namespace: '' })).decision, 'no-opinion', 'no cluster-wide list from a RoleBinding');
  // a ServiceAccount subject without a namespace is the binding's namespace's
  assert.equal(a.authorize(attrs('system:serviceaccount:dev:robot', [])).decision, 'allow');
  assert.equal(a.authorize(attrs('system:serviceaccount:prod:robot', [])).decision, 'no-opinion');
  assert.equal(a.authorize(attrs('bob', ['ops'], { verb: 'get', resource: 'nodes', namespace: '', name: 'n1' })).decision, 'allow');
  assert.equal(a.authorize(attrs('bob', [], { verb: 'get', resource: 'nodes', namespace: '', name: 'n1' })).decision, 'no-opinion');
});

test('changes apply at once (the remembered rules are dropped); deleted bindings grant nothing', () => {
  const ix = seeded();
  const a = authorizerOf(ix);
  assert.equal(a.authorize(attrs('jane', [])).decision, 'allow');
  ix.apply('Role', { metadata: { name: 'reader', namespace: 'dev' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, false);
  assert.equal(a.authorize(attrs('jane', [])).decision, 'no-opinion');
  assert.equal(a.authorize(attrs('jane', [], { verb: 'get', name: 'p' })).decision, 'allow');
  ix.apply('RoleBinding', { metadata: { name: 'b', namespace: 'dev' } }, true);
  assert.equal(a.authorize(attrs('jane', [], { verb: 'get', name: 'p' })).decision, 'no-opinion');
  // a binding whose subjects change is re-indexed
  ix.apply('ClusterRoleBinding', { metadata: { name: 'ops-nodes' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'nodes' }, subjects: [{ kind: 'User', name: 'carol' }] }, false);
  assert.equal(a.authorize(attrs('bob', ['ops'], { verb: 'get', resource: 'nodes', namespace: '' })).decision, 'no-opinion');
  assert.equal(a.authorize(attrs('carol', [], { verb: 'get', resource: 'nodes', namespace: '' })).decision, 'allow');
});

test('a binding to a missing role is named in the reason, as Kubernetes reports it', () => {
  const ix = new RbacIndex();
  ix.apply('RoleBinding', { metadata: { name: 'b', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'jane' }] }, false);
  assert.deepEqual(authorizerOf(ix).authorize(attrs('jane', [])), { decision: 'no-opinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found' });
  ix.apply('RoleBinding', { metadata: { name: 'c', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'jane' }] }, false);
  assert.equal(authorizerOf(ix).authorize(attrs('jane', [])).reason, 'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "r" not found]');
});

test('the chain: first decision wins; system:masters is always allowed; reasons of the undecided are joined', () => {
  const no = (reason: string): Authorizer => ({ authorize: () => ({ decision: 'no-opinion', reason }) });
  const deny: Authorizer = { authorize: () => ({ decision: 'deny', reason: 'nope' }) };
  const allow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };
  assert.equal(createChain([no(''), allow, deny]).authorize(attrs('x', [])).decision, 'allow');
  assert.deepEqual(createChain([no(''), deny, allow]).authorize(attrs('x', [])), { decision: 'deny', reason: 'nope' });
  assert.deepEqual(createChain([no('a'), no('b')]).authorize(attrs('x', [])), { decision: 'no-opinion', reason: 'a\nb' });
  assert.equal(createChain([deny]).authorize(attrs('admin', ['system:masters'])).decision, 'allow');
});

test('after a watch restarts, objects it no longer lists are dropped', () => {
  const ix = seeded();
  const a = authorizerOf(ix);
  ix.retainOnly('RoleBinding', new Set());
  assert.equal(a.authorize(attrs('jane', [])).decision, 'no-opinion');
  assert.equal(a.authorize(attrs('bob', ['ops'], { verb: 'get', resource: 'nodes', namespace: '' })).decision, 'allow', 'cluster role bindings stay');
  ix.retainOnly('ClusterRole', new Set(['/other']));
  assert.equal(a.authorize(attrs('bob', ['ops'], { verb: 'get', resource: 'nodes', namespace: '' })).reason, 'RBAC: clusterrole.rbac.authorization.k8s.io "nodes" not found');
});

test('an allowed request is named by the grant that allowed it, in the words of Kubernetes\' RBAC reasons', () => {
  const ix = seeded();
  ix.apply('RoleBinding', { metadata: { name: 'bots', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'nodes' }, subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ci' }] }, false);
  assert.deepEqual(rbacDecision(ix, attrs('jane', [])), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "b/dev" of Role "reader" to User "jane"' });
  assert.deepEqual(rbacDecision(ix, attrs('system:serviceaccount:dev:robot', [])), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "b/dev" of Role "reader" to ServiceAccount "robot/dev"' });
  assert.deepEqual(rbacDecision(ix, attrs('system:serviceaccount:ci:robot', [], { resource: 'nodes', verb: 'get' })), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "bots/dev" of ClusterRole "nodes" to ServiceAccount "robot/ci"' });
  assert.deepEqual(rbacDecision(ix, attrs('sam', ['ops'], { resource: 'nodes', verb: 'get', namespace: '' })), { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "ops-nodes" of ClusterRole "nodes" to Group "ops"' });
  assert.deepEqual(rbacDecision(ix, attrs('sam', ['ops'])), { decision: 'no-opinion', reason: '' });
});
