import { test } from 'node:test';
import assert from 'node:assert/strict';
import { impersonate } from '../../../../src/apiserver/authz/impersonation.ts';
import type { Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import { StatusError } from '../../../../src/api/status.ts';
import { attributesOf } from '../../../../src/apiserver/authz/attributes.ts';
import { forbiddenError } from '../../../../src/apiserver/authz/forbidden.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';

const asked: string[] = [];
// may impersonate users (any) and the group dev, service accounts in ns a
const authz: Authorizer = {
  authorize(a) {
    asked.push(`${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`);
    const ok = a.verb === 'impersonate' && (a.resource === 'users' || (a.resource === 'groups' && a.name === 'dev') || (a.resource === 'serviceaccounts' && a.namespace === 'a') || a.resource === 'userextras');
    return { decision: ok ? 'allow' : 'no-opinion', reason: '' };
  },
};
const me = { name: 'jane', groups: ['system:authenticated'] };

test('impersonating a user and groups: each checked with the impersonate verb; system:authenticated added', () => {
  asked.length = 0;
  const u = impersonate(me, { 'impersonate-user': 'bob', 'impersonate-group': ['dev'], 'impersonate-extra-scopes': ['x'] }, authz);
  assert.deepEqual(u, { name: 'bob', groups: ['dev', 'system:authenticated'], extra: { scopes: ['x'] } });
  assert.deepEqual(asked, ['impersonate /users /bob', 'impersonate /groups /dev', 'impersonate authentication.k8s.io/userextras/scopes /x']);
});

test('a service account is checked as serviceaccounts in its namespace and gets its groups', () => {
  assert.deepEqual(impersonate(me, { 'impersonate-user': 'system:serviceaccount:a:robot' }, authz), { name: 'system:serviceaccount:a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:a', 'system:authenticated'] });
  const e = impersonate(me, { 'impersonate-user': 'system:serviceaccount:b:robot' }, authz) as StatusError;
  assert.equal(e.message, 'serviceaccounts "robot" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "b"');
});

test('refusals name what was asked; a group without a user is an error', () => {
  const e = impersonate(me, { 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' }, authz) as StatusError;
  assert.equal(e.code, 403);
  assert.equal(e.message, 'groups "system:masters" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope');
  assert.equal((impersonate(me, { 'impersonate-group': 'dev' }, authz) as StatusError).code, 500);
  assert.equal(impersonate(me, {}, authz), me);
});

test('request attributes and denial messages as kube-apiserver builds them', () => {
  const a = (method: string, path: string, q = '') => attributesOf(me, parseRequestInfo(method, path, new URLSearchParams(q)), new URLSearchParams(q));
  const exec = a('POST', '/api/v1/namespaces/dev/pods/p/exec');
  assert.deepEqual([exec.verb, exec.resource, exec.subresource, exec.name, exec.namespace], ['create', 'pods', 'exec', 'p', 'dev']);
  assert.equal(a('GET', '/api/v1/namespaces/dev/pods/p/exec').verb, 'get');
  assert.equal(a('GET', '/api/v1/pods', 'watch=1').verb, 'watch');
  assert.equal(a('GET', '/api/v1/namespaces/dev/configmaps', 'fieldSelector=metadata.name%3Dx').name, 'x');
  const ns = a('GET', '/api/v1/namespaces/dev');
  assert.deepEqual([ns.resource, ns.name, ns.namespace], ['namespaces', 'dev', '']);
  assert.equal(forbiddenError(exec, '').message, 'pods "p" is forbidden: User "jane" cannot create resource "pods/exec" in API group "" in the namespace "dev"');
  assert.equal(forbiddenError(a('DELETE', '/apis/apps/v1/namespaces/dev/deployments'), '').message, 'deployments.apps is forbidden: User "jane" cannot deletecollection resource "deployments" in API group "apps" in the namespace "dev"');
  assert.equal(forbiddenError(a('GET', '/api/v1/nodes'), '').message, 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope');
  assert.equal(forbiddenError(a('GET', '/metrics'), '').message, 'forbidden: User "jane" cannot get path "/metrics"');
  assert.equal(forbiddenError(a('GET', '/api/v1/nodes'), 'RBAC: x').message, 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: x');
});
