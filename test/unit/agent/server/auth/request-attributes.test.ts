import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiVerb, isSubpath, nodeRequestAttributes } from '../../../../../src/agent/server/auth/request-attributes.ts';

test('HTTP methods map to API verbs as the kubelet maps them; others to none', () => {
  assert.deepEqual(['POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map(apiVerb), ['create', 'get', 'update', 'patch', 'delete', '', '']);
});

test('a path is below a base only at a segment boundary', () => {
  assert.equal(isSubpath('/stats', '/stats/'), true);
  assert.equal(isSubpath('/stats/summary', '/stats/'), true);
  assert.equal(isSubpath('/statsx', '/stats/'), false);
  assert.equal(isSubpath('/metrics/resource', '/metrics'), true);
  assert.equal(isSubpath('/metricsfoo', '/metrics'), false);
});

test('paths map to nodes subresources as the kubelet maps them, named after the node', () => {
  const subs = (method: string, path: string) => nodeRequestAttributes('node-1', method, path).subresources;
  assert.deepEqual(subs('GET', '/stats/summary'), ['stats']);
  assert.deepEqual(subs('GET', '/metrics'), ['metrics']);
  assert.deepEqual(subs('GET', '/metrics/cadvisor'), ['metrics']);
  assert.deepEqual(subs('GET', '/logs/syslog'), ['log']);
  assert.deepEqual(subs('POST', '/checkpoint/default/p/c'), ['checkpoint']);
  // streams and container logs are nodes/proxy
  for (const p of ['/exec/default/p/c', '/attach/default/p/c', '/portForward/default/p', '/run/default/p/c', '/containerLogs/default/p/c', '/anything']) assert.deepEqual(subs('GET', p), ['proxy'], p);
  // fine-grained first, proxy as the fallback
  assert.deepEqual(subs('GET', '/pods'), ['pods', 'proxy']);
  assert.deepEqual(subs('GET', '/runningpods/'), ['pods', 'proxy']);
  assert.deepEqual(subs('GET', '/healthz'), ['healthz', 'proxy']);
  assert.deepEqual(subs('GET', '/healthz/syncloop'), ['healthz', 'proxy']);
  assert.deepEqual(subs('GET', '/configz'), ['configz', 'proxy']);
  assert.deepEqual(nodeRequestAttributes('node-1', 'GET', '/pods', false).subresources, ['proxy']);
  assert.deepEqual(nodeRequestAttributes('node-1', 'POST', '/exec/ns/p/c'), { verb: 'create', resource: 'nodes', subresources: ['proxy'], name: 'node-1', path: '/exec/ns/p/c' });
});
