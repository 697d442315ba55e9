// pods/log options as kube-apiserver decodes and validates them, and the query the node agent
// gets, through the router (no node needed for the refusals).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { agentLogQuery, decodePodLogOptions } from '../../../../src/registry/subresources/log-options.ts';

let api: TestApi;
before(async () => {
  api = await testApi();
  const pod = { metadata: { name: 'p' }, spec: { initContainers: [{ name: 'i', image: 'busybox' }], containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] } };
  assert.equal((await api.request('POST', '/api/v1/namespaces/default/pods', { body: pod })).status, 201);
});
after(() => api.close());

const log = (q: string) => api.request('GET', `/api/v1/namespaces/default/pods/p/log?${q}`);

test('options that fail ValidatePodLogOptions: 422 Invalid on PodLogOptions, in its words', async () => {
  const cases: Array<[string, string]> = [
    ['container=a&tailLines=-1', 'PodLogOptions "p" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0'],
    ['container=a&limitBytes=0', 'PodLogOptions "p" is invalid: limitBytes: Invalid value: 0: must be greater than 0'],
    ['container=a&sinceSeconds=0', 'PodLogOptions "p" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0'],
    ['container=a&sinceSeconds=10&sinceTime=2026-11-23T10:00:00Z', 'PodLogOptions "p" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'],
    ['container=a&tailLines=-1&limitBytes=-5', 'PodLogOptions "p" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: -5: must be greater than 0]'],
  ];
  for (const [q, message] of cases) {
    const r = await log(q);
    assert.equal(r.status, 422, q);
    assert.equal(r.json().reason, 'Invalid');
    assert.equal(r.json().message, message);
    assert.equal(r.json().details.kind, 'PodLogOptions');
  }
});

test('options that do not decode: 400 with Go\'s parse error', async () => {
  const cases: Array<[string, string]> = [
    ['tailLines=ten', 'strconv.ParseInt: parsing "ten": invalid syntax'],
    ['limitBytes=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ['sinceTime=yesterday', 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['sinceTime=2026-13-01T00:00:00Z', 'parsing time "2026-13-01T00:00:00Z": month out of range'],
  ];
  for (const [q, message] of cases) {
    const r = await log(`container=a&${q}`);
    assert.equal(r.status, 400, q);
    assert.equal(r.json().message, message);
  }
});

test('the container: named, the only one, or the choice listed over every kind of container', async () => {
  const none = await log('');
  assert.equal(none.status, 400);
  assert.equal(none.json().message, 'a container name must be specified for pod p, choose one of: [i a b]');
  assert.equal((await log('container=zzz')).json().message, 'container zzz is not valid for pod p');
  // not on a node yet: nothing to stream, 204 as kube-apiserver answers
  assert.equal((await log('container=i')).status, 204);
});

test('the agent\'s query is rebuilt from the decoded options, as LogLocation builds the kubelet\'s', () => {
  const q = (s: string) => agentLogQuery(decodePodLogOptions(new URLSearchParams(s))).toString();
  assert.equal(q('follow=1&previous=false&timestamps=True&tailLines=5&limitBytes=100&insecureSkipTLSVerifyBackend=true'), 'follow=true&timestamps=true&tailLines=5&limitBytes=100');
  assert.equal(q('follow=0&timestamps=f&sinceSeconds=30'), 'sinceSeconds=30');
  // whole seconds in UTC, as metav1.Time formats it
  assert.equal(q('sinceTime=2026-11-23T12:00:05.75%2B02:00'), 'sinceTime=2026-11-23T10%3A00%3A05Z');
  assert.equal(q('sinceTime='), 'sinceTime=0001-01-01T00%3A00%3A00Z');
});
