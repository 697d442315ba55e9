import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WatchTracker } from '../../../../src/apiserver/flowcontrol/watch-tracker.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';

function watch(t: WatchTracker, url: string): () => void {
  const [path, q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  return t.register(parseRequestInfo('GET', path!, query), query);
}
const interested = (t: WatchTracker, method: string, path: string) => t.interested(parseRequestInfo(method, path, new URLSearchParams()));

test('a write hears of the watches of its resource, its namespace and its object', () => {
  const t = new WatchTracker();
  watch(t, '/api/v1/configmaps?watch=true');
  watch(t, '/api/v1/namespaces/a/configmaps?watch=true');
  watch(t, '/api/v1/namespaces/a/configmaps?watch=true&labelSelector=x%3Dy');
  watch(t, '/api/v1/namespaces/a/configmaps?watch=true&fieldSelector=metadata.name%3Dcm1');
  watch(t, '/api/v1/watch/namespaces/a/configmaps/cm1');
  watch(t, '/api/v1/namespaces/b/configmaps?watch=true');
  watch(t, '/api/v1/namespaces/a/secrets?watch=true');
  watch(t, '/apis/example.com/v1/namespaces/a/configmaps?watch=true');
  assert.equal(interested(t, 'PUT', '/api/v1/namespaces/a/configmaps/cm1'), 5, 'all, a (twice, selectors ignored), cm1 (twice)');
  assert.equal(interested(t, 'PUT', '/api/v1/namespaces/a/configmaps/cm2'), 3);
  assert.equal(interested(t, 'POST', '/api/v1/namespaces/a/configmaps'), 3, 'a create names no object');
  assert.equal(interested(t, 'PATCH', '/api/v1/namespaces/a/configmaps/cm1/status'), 5, 'subresources are writes of their resource');
  assert.equal(interested(t, 'DELETE', '/api/v1/namespaces/b/configmaps/cm1'), 2);
  assert.equal(interested(t, 'GET', '/api/v1/namespaces/a/configmaps/cm1'), 0, 'reads are not charged');
});

test('a node agent\'s pods watch (pinned spec.nodeName) is not counted; an unpinned one is', () => {
  const t = new WatchTracker();
  const forget = [watch(t, '/api/v1/pods?watch=true&fieldSelector=spec.nodeName%3Dnode-1'), watch(t, '/api/v1/pods?watch=true&fieldSelector=spec.nodeName%3D')];
  assert.equal(interested(t, 'POST', '/api/v1/namespaces/a/pods'), 1);
  for (const f of forget) f();
  assert.equal(interested(t, 'POST', '/api/v1/namespaces/a/pods'), 0);
});

test('forgetting twice counts once; cluster-scoped objects and namespaces are keyed as kube-apiserver keys them', () => {
  const t = new WatchTracker();
  const f = watch(t, '/api/v1/nodes?watch=true');
  watch(t, '/api/v1/nodes?watch=true&fieldSelector=metadata.name%3Dn1');
  watch(t, '/api/v1/nodes?watch=true');
  assert.equal(interested(t, 'PATCH', '/api/v1/nodes/n1/status'), 3);
  assert.equal(interested(t, 'PATCH', '/api/v1/nodes/n2'), 2);
  f();
  f();
  assert.equal(interested(t, 'PATCH', '/api/v1/nodes/n2'), 1);
  // a namespace's own path names it as its namespace too
  watch(t, '/api/v1/namespaces?watch=true');
  assert.equal(interested(t, 'PUT', '/api/v1/namespaces/ns1'), 1);
  assert.equal(interested(t, 'GET', '/api/v1/namespaces?watch=true'), 0);
  assert.equal(watch(t, '/api/v1/namespaces/a/configmaps')(), undefined, 'a list is not registered');
  assert.equal(interested(t, 'POST', '/api/v1/namespaces/a/configmaps'), 0);
});
