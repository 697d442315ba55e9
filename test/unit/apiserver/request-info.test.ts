import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../src/apiserver/request-info.ts';
import { StatusError } from '../../../src/api/status.ts';

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

test('segments are split before they are decoded: escaped dots and slashes stay names', () => {
  const dots = parseRequestInfo('GET', '/api/v1/namespaces/bad/secrets/%2E%2E/%2E%2E/kube-system', q());
  assert.deepEqual([dots.namespace, dots.resource, dots.name, dots.subresource], ['bad', 'secrets', '..', '../kube-system']);
  const slash = parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/a%2Fb', q());
  assert.equal(slash.name, 'a/b');
  assert.equal(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/caf%C3%A9', q()).name, 'café');
  // a non-resource path with an escaped slash matches no fixed path
  assert.equal(parseRequestInfo('GET', '/healthz%2Fetcd', q()).path, '/healthz%2Fetcd');
  assert.equal(parseRequestInfo('GET', '/healthz/etcd/', q()).path, '/healthz/etcd');
});

test('an empty segment inside the path names nothing', () => {
  assert.equal(parseRequestInfo('GET', '/api/v1//pods', q()).isResourceRequest, false);
  assert.equal(parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps//x', q()).isResourceRequest, false);
});

test('a path that does not decode is a 400, not an exception that leaves the request unanswered', () => {
  for (const path of ['/api/v1/namespaces/default/configmaps/%FF', '/healthz/%FF', '/api/v1/%E0%A4%A', '/apis/%ZZ/v1/x']) {
    assert.throws(() => parseRequestInfo('GET', path, q()), (e: unknown) => e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest', path);
  }
});

test('verbs of HEAD and PATCH, and watch switched off or on as Kubernetes reads the parameter', () => {
  assert.equal(parseRequestInfo('HEAD', '/api/v1/namespaces/a/pods/p', q()).verb, 'get');
  assert.equal(parseRequestInfo('HEAD', '/api/v1/namespaces/a/pods', q()).verb, 'list');
  assert.equal(parseRequestInfo('PATCH', '/apis/apps/v1/namespaces/a/deployments/d/scale', q()).verb, 'patch');
  for (const off of ['0', 'false', 'False']) assert.equal(parseRequestInfo('GET', '/api/v1/pods', q(`watch=${off}`)).verb, 'list', off);
  for (const on of ['1', 'true', '']) assert.equal(parseRequestInfo('GET', '/api/v1/pods', q(`watch=${on}`)).verb, 'watch', on);
});

test('a legacy watch of one object, a namespace by name and its status, and subresources of several segments', () => {
  const w = parseRequestInfo('GET', '/api/v1/watch/namespaces/a/pods/p', q());
  assert.deepEqual([w.namespace, w.resource, w.name, w.verb], ['a', 'pods', 'p', 'watch']);
  const ns = parseRequestInfo('GET', '/api/v1/namespaces/a', q());
  assert.deepEqual([ns.resource, ns.name, ns.namespace, ns.verb], ['namespaces', 'a', undefined, 'get']);
  const st = parseRequestInfo('PUT', '/api/v1/namespaces/a/status', q());
  assert.deepEqual([st.resource, st.name, st.subresource, st.namespace, st.verb], ['namespaces', 'a', 'status', undefined, 'update']);
  const proxy = parseRequestInfo('GET', '/api/v1/namespaces/a/pods/p/proxy/x/y', q());
  assert.deepEqual([proxy.resource, proxy.name, proxy.subresource], ['pods', 'p', 'proxy/x/y']);
  assert.deepEqual([proxy.prefix, parseRequestInfo('GET', '/apis/apps/v1/deployments', q()).prefix], ['api', 'apis']);
});

test('the 400 for a segment that does not decode names the segment', () => {
  assert.throws(() => parseRequestInfo('GET', '/api/v1/namespaces/default/configmaps/a%FFb', q()),
    (e: unknown) => e instanceof StatusError && e.message === 'invalid URL escape in path segment "a%FFb": not percent-encoded UTF-8');
});
