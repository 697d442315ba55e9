// FlowSchema rules matched as kube-apiserver matches them: subjects, resource and non-resource rules.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flowSchemaMatches, nonResourcePathMatches, subjectMatches, type RequestDigest } from '../../../../src/apiserver/flowcontrol/rules.ts';
import type { FlowcontrolV1FlowSchemaSpec } from '../../../../src/schema/generated/types.ts';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const sa = { name: 'system:serviceaccount:kube-system:deployment-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] };
const getPods = (namespace?: string, extra: Partial<RequestDigest> = {}): RequestDigest => ({ isResourceRequest: true, verb: 'get', path: '', group: '', resource: 'pods', namespace, ...extra });

test('subjects: users, groups and service accounts by name or `*`', () => {
  assert.equal(subjectMatches({ kind: 'User', user: { name: 'alice' } }, alice), true);
  assert.equal(subjectMatches({ kind: 'User', user: { name: 'bob' } }, alice), false);
  assert.equal(subjectMatches({ kind: 'User', user: { name: '*' } }, alice), true);
  assert.equal(subjectMatches({ kind: 'Group', group: { name: 'devs' } }, alice), true);
  assert.equal(subjectMatches({ kind: 'Group', group: { name: 'ops' } }, alice), false);
  assert.equal(subjectMatches({ kind: 'Group', group: { name: '*' } }, { name: 'x', groups: [] }), true);
  assert.equal(subjectMatches({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'deployment-controller' } }, sa), true);
  assert.equal(subjectMatches({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'other' } }, sa), false);
  assert.equal(subjectMatches({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }, sa), true);
  // the namespace must be the whole segment: kube-system-extra is another namespace
  assert.equal(subjectMatches({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube', name: '*' } }, sa), false);
  assert.equal(subjectMatches({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }, alice), false);
  // a kind without its member, or an unknown kind, matches nobody
  assert.equal(subjectMatches({ kind: 'User' }, alice), false);
  assert.equal(subjectMatches({ kind: 'Robot', user: { name: '*' } }, alice), false);
});

test('resource rules: verbs, groups, resources with subresources, namespaces and cluster scope', () => {
  const spec = (rule: object): FlowcontrolV1FlowSchemaSpec => ({ priorityLevelConfiguration: { name: 'l' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'devs' } }], resourceRules: [rule as never] }] });
  const pods = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] };
  assert.equal(flowSchemaMatches(spec(pods), alice, getPods('default')), true);
  assert.equal(flowSchemaMatches(spec(pods), alice, getPods('default', { verb: 'delete' })), false);
  assert.equal(flowSchemaMatches(spec(pods), alice, getPods('other')), false);
  assert.equal(flowSchemaMatches(spec(pods), alice, getPods('default', { group: 'apps' })), false);
  // a subresource is named with its resource
  assert.equal(flowSchemaMatches(spec(pods), alice, getPods('default', { subresource: 'log' })), false);
  assert.equal(flowSchemaMatches(spec({ ...pods, resources: ['pods/log'] }), alice, getPods('default', { subresource: 'log' })), true);
  // no namespace: only clusterScope rules match, and `*` namespaces do not cover it
  assert.equal(flowSchemaMatches(spec({ ...pods, namespaces: ['*'] }), alice, getPods(undefined)), false);
  assert.equal(flowSchemaMatches(spec({ ...pods, namespaces: ['*'], clusterScope: true }), alice, getPods(undefined)), true);
  assert.equal(flowSchemaMatches(spec({ ...pods, namespaces: ['*'] }), alice, getPods('any')), true);
  // wildcards
  const all = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] };
  assert.equal(flowSchemaMatches(spec(all), alice, getPods('x', { verb: 'watch', group: 'apps', resource: 'deployments', subresource: 'scale' })), true);
  // a resource rule never matches a non-resource request
  assert.equal(flowSchemaMatches(spec(all), alice, { isResourceRequest: false, verb: 'get', path: '/healthz', group: '', resource: '' }), false);
  // subjects first: the rule is someone else's
  assert.equal(flowSchemaMatches(spec(all), sa, getPods('x')), false);
});

test('non-resource rules: verbs, exact paths, `*`, and paths as prefixes', () => {
  assert.equal(nonResourcePathMatches('*', '/anything/at/all'), true);
  assert.equal(nonResourcePathMatches('/healthz', '/healthz'), true);
  assert.equal(nonResourcePathMatches('/healthz', '/healthz/etcd'), true);
  assert.equal(nonResourcePathMatches('/healthz', '/healthzz'), false);
  assert.equal(nonResourcePathMatches('/apis/*', '/apis/apps/v1'), true);
  assert.equal(nonResourcePathMatches('/apis/*', '/apis'), false);
  assert.equal(nonResourcePathMatches('/api', '/apis'), false);
  const spec: FlowcontrolV1FlowSchemaSpec = { priorityLevelConfiguration: { name: 'l' }, rules: [{ subjects: [{ kind: 'User', user: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }] }] };
  const get = (path: string, verb = 'get'): RequestDigest => ({ isResourceRequest: false, verb, path, group: '', resource: '' });
  assert.equal(flowSchemaMatches(spec, alice, get('/metrics')), true);
  assert.equal(flowSchemaMatches(spec, alice, get('/debug/pprof/heap')), true);
  assert.equal(flowSchemaMatches(spec, alice, get('/metrics', 'post')), false);
  assert.equal(flowSchemaMatches(spec, alice, get('/version')), false);
  // a non-resource rule never matches a resource request
  assert.equal(flowSchemaMatches(spec, alice, getPods('x')), false);
});

test('a schema matches when any of its rules does; none without rules', () => {
  const two: FlowcontrolV1FlowSchemaSpec = {
    priorityLevelConfiguration: { name: 'l' },
    rules: [
      { subjects: [{ kind: 'User', user: { name: 'bob' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] },
      { subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] },
    ],
  };
  assert.equal(flowSchemaMatches(two, alice, getPods('x')), true);
  assert.equal(flowSchemaMatches(two, alice, getPods('x', { verb: 'list' })), false);
  assert.equal(flowSchemaMatches({ priorityLevelConfiguration: { name: 'l' } }, alice, getPods('x')), false);
});
