import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';
import { dryRunLabel, inflightKind, nonResourceLabels, reportedVerb, requestScope } from '../../../../src/apiserver/metrics/request-labels.ts';

const info = (method: string, target: string) => {
  const [path, q = ''] = target.split('?');
  return parseRequestInfo(method, path!, new URLSearchParams(q));
};
const verb = (method: string, target: string, contentType?: string) => reportedVerb(method, info(method, target), contentType);

test('verbs as kube-apiserver reports them: the method, LIST for collections, WATCH, APPLY, CONNECT, other', () => {
  assert.equal(verb('GET', '/api/v1/namespaces/a/pods/p'), 'GET');
  assert.equal(verb('HEAD', '/api/v1/namespaces/a/pods/p'), 'GET');
  assert.equal(verb('GET', '/api/v1/namespaces/a/pods'), 'LIST');
  assert.equal(verb('GET', '/api/v1/pods'), 'LIST');
  assert.equal(verb('GET', '/api/v1/pods?watch=true'), 'WATCH');
  assert.equal(verb('GET', '/api/v1/pods?watch=1'), 'WATCH');
  assert.equal(verb('GET', '/api/v1/pods?watch=false'), 'LIST');
  assert.equal(verb('GET', '/api/v1/watch/namespaces/a/pods/p'), 'WATCH', 'the legacy watch path of one object');
  assert.equal(verb('POST', '/api/v1/namespaces/a/pods'), 'POST');
  assert.equal(verb('PUT', '/api/v1/namespaces/a/pods/p'), 'PUT');
  assert.equal(verb('PATCH', '/api/v1/namespaces/a/pods/p', 'application/merge-patch+json'), 'PATCH');
  assert.equal(verb('PATCH', '/apis/apps/v1/namespaces/a/deployments/d', 'application/apply-patch+yaml'), 'APPLY');
  assert.equal(verb('DELETE', '/api/v1/namespaces/a/pods/p'), 'DELETE');
  assert.equal(verb('DELETE', '/api/v1/namespaces/a/pods'), 'DELETE', 'a collection delete reports its method');
  for (const sub of ['exec', 'attach', 'portforward', 'log', 'proxy', 'proxy/some/path']) {
    assert.equal(verb(sub === 'log' ? 'GET' : 'POST', `/api/v1/namespaces/a/pods/p/${sub}`), 'CONNECT', sub);
  }
  assert.equal(verb('GET', '/api/v1/namespaces/a/pods/p/status'), 'GET');
  assert.equal(verb('OPTIONS', '/api/v1/namespaces/a/pods/p'), 'other');
  assert.equal(verb('GET', '/healthz'), 'GET');
});

test('scope: a named object or a create is resource, then namespace, cluster, and none for other paths', () => {
  assert.equal(requestScope(info('GET', '/api/v1/namespaces/a/pods/p')), 'resource');
  assert.equal(requestScope(info('POST', '/api/v1/namespaces/a/pods')), 'resource');
  assert.equal(requestScope(info('POST', '/api/v1/namespaces')), 'resource');
  assert.equal(requestScope(info('GET', '/api/v1/namespaces/a/pods')), 'namespace');
  assert.equal(requestScope(info('DELETE', '/api/v1/namespaces/a/pods')), 'namespace');
  assert.equal(requestScope(info('GET', '/api/v1/pods')), 'cluster');
  assert.equal(requestScope(info('GET', '/api/v1/namespaces/a')), 'resource', 'a namespace is a named cluster object');
  assert.equal(requestScope(info('GET', '/apis')), '');
});

test('dry_run: empty without it, All, invalid for anything else', () => {
  assert.equal(dryRunLabel(new URLSearchParams('')), '');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=All')), 'All');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=All&dryRun=All')), 'All');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=all')), 'invalid');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=')), 'invalid');
});

test('in-flight kinds: reads are readOnly, writes mutating, long-running requests not counted', () => {
  assert.equal(inflightKind(info('GET', '/api/v1/pods')), 'readOnly');
  assert.equal(inflightKind(info('GET', '/healthz')), 'readOnly');
  assert.equal(inflightKind(info('POST', '/api/v1/namespaces/a/pods')), 'mutating');
  assert.equal(inflightKind(info('POST', '/api/v1/namespaces/a/pods/p/eviction')), 'mutating');
  assert.equal(inflightKind(info('GET', '/api/v1/pods?watch=true')), undefined);
  assert.equal(inflightKind(info('GET', '/api/v1/namespaces/a/pods/p/log')), undefined);
  assert.equal(inflightKind(info('POST', '/api/v1/namespaces/a/pods/p/exec')), undefined);
  assert.equal(inflightKind(info('GET', '/api/v1/nodes/n/proxy/metrics')), undefined);
});

test('non-resource paths: health roots, discovery and OpenAPI v3 are labelled; the rest not recorded', () => {
  assert.deepEqual(nonResourceLabels('/readyz'), { subresource: '/readyz', component: '' });
  assert.deepEqual(nonResourceLabels('/apis'), { subresource: '/apis', component: 'apiserver' });
  assert.deepEqual(nonResourceLabels('/openapi/v3/apis/apps/v1'), { subresource: 'openapi/v3/', component: '' });
  assert.equal(nonResourceLabels('/readyz/etcd'), undefined);
  assert.equal(nonResourceLabels('/metrics'), undefined);
  assert.equal(nonResourceLabels('/no/such/path'), undefined);
});
