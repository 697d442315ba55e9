import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactRule, ruleAllows, type RuleRequest } from '../../../../src/apiserver/authz/rules.ts';

const req = (over: Partial<RuleRequest>): RuleRequest => ({ verb: 'get', isResourceRequest: true, path: '', apiGroup: '', resource: 'pods', subresource: '', name: '', ...over });

test('verbs, groups and resources match exactly or by *', () => {
  const r = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  assert.ok(ruleAllows(req({}), r));
  assert.ok(ruleAllows(req({ verb: 'list' }), r));
  assert.ok(!ruleAllows(req({ verb: 'create' }), r));
  assert.ok(!ruleAllows(req({ apiGroup: 'apps' }), r));
  assert.ok(!ruleAllows(req({ resource: 'services' }), r));
  assert.ok(ruleAllows(req({ verb: 'delete', apiGroup: 'apps', resource: 'deployments' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
});

test('subresources: named as resource/subresource, or */subresource; the resource alone does not cover them', () => {
  assert.ok(!ruleAllows(req({ resource: 'pods', subresource: 'exec', verb: 'create' }), { verbs: ['create'], apiGroups: [''], resources: ['pods'] }));
  assert.ok(ruleAllows(req({ resource: 'pods', subresource: 'exec', verb: 'create' }), { verbs: ['create'], apiGroups: [''], resources: ['pods/exec'] }));
  assert.ok(ruleAllows(req({ resource: 'deployments', subresource: 'scale', apiGroup: 'apps' }), { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }));
  assert.ok(!ruleAllows(req({ resource: 'deployments', subresource: 'status', apiGroup: 'apps' }), { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }));
  assert.ok(!ruleAllows(req({ resource: 'pods', subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }), 'pods/* is no wildcard in Kubernetes');
  assert.ok(ruleAllows(req({ resource: 'pods', subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['*'] }));
});

test('resourceNames restrict to named objects; a request without a name (list, create) does not match them', () => {
  const r = { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
  assert.ok(ruleAllows(req({ resource: 'configmaps', name: 'a' }), r));
  assert.ok(!ruleAllows(req({ resource: 'configmaps', name: 'b' }), r));
  assert.ok(!ruleAllows(req({ resource: 'configmaps', verb: 'list' }), r));
});

test('nonResourceURLs: exact, *, and a trailing * as prefix; never for resource requests', () => {
  const r = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
  const nr = (path: string) => req({ isResourceRequest: false, path, resource: '' });
  assert.ok(ruleAllows(nr('/healthz'), r));
  assert.ok(!ruleAllows(nr('/healthz/etcd'), r));
  assert.ok(ruleAllows(nr('/apis/apps/v1'), r));
  assert.ok(!ruleAllows(nr('/apis'), r));
  assert.ok(ruleAllows(nr('/metrics'), { verbs: ['get'], nonResourceURLs: ['*'] }));
  assert.ok(!ruleAllows(req({}), { verbs: ['*'], nonResourceURLs: ['*'] }));
  assert.ok(!ruleAllows(nr('/healthz'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
});

test('rules print as Kubernetes compacts them', () => {
  assert.equal(compactRule({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
  assert.equal(compactRule({ nonResourceURLs: ['/x'], verbs: ['get'] }), '{NonResourceURLs:["/x"], Verbs:["get"]}');
  assert.equal(compactRule({ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get'] }), '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get"]}');
});
