import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../src/apiserver/request-info.ts';

const q = (s = '') => new URLSearchParams(s);

test('core namespaced object and subresource', () => {
  const r = parseRequestInfo('GET', '/api/v1/namespaces/ns1/pods/web/status', q());
  assert.equal(r.isResourceRequest, true);
  assert.deepEqual([r.group, r.version, r.namespace, r.resource, r.name, r.subresource, r.verb], ['', 'v1', 'ns1', 'pods', 'web', 'status', 'get']);
});

test('grouped collections, all namespaces, and verbs', () => {
  const list = parseRequestInfo('GET', '/apis/apps/v1/deployments', q());
  assert.deepEqual([list.group, list.version, list.namespace, list.resource, list.verb], ['apps', 'v1', undefined, 'deployments', 'list']);
  assert.equal(parseRequestInfo('POST', '/apis/apps/v1/namespaces/a/deployments', q()).verb, 'create');
  assert.equal(parseRequestInfo('DELETE', '/apis/apps/v1/namespaces/a/deployments', q()).verb, 'deletecollection');
  assert.equal(parseRequestInfo('DELETE', '/apis/apps/v1/namespaces/a/deployments/d', q()).verb, 'delete');
  assert.equal(parseRequestInfo('GET', '/api/v1/pods', q('watch=1')).verb, 'watch');
  assert.equal(parseRequestInfo('GET', '/api/v1/watch/namespaces/a/pods', q()).verb, 'watch');
});

test('namespaces are cluster-scoped with their own subresources', () => {
  const ns = parseRequestInfo('GET', '/api/v1/namespaces/kube-system', q());
  assert.deepEqual([ns.resource, ns.name, ns.namespace], ['namespaces', 'kube-system', undefined]);
  const fin = parseRequestInfo('PUT', '/api/v1/namespaces/x/finalize', q());
  assert.deepEqual([fin.resource, fin.name, fin.subresource, fin.verb], ['namespaces', 'x', 'finalize', 'update']);
  assert.equal(parseRequestInfo('GET', '/api/v1/namespaces', q()).verb, 'list');
});

test('discovery paths are not resource requests', () => {
  for (const p of ['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/openapi/v2']) {
    assert.equal(parseRequestInfo('GET', p, q()).isResourceRequest, false, p);
  }
});
