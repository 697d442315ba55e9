// pods/exec, pods/attach and pods/portforward through the router and handlers: the checks
// kube-apiserver makes before relaying (container, node), in its words, the query turned into
// the kubelet's.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import { queryBool, streamQuery } from '../../../../src/registry/subresources/pod-stream.ts';

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const pods = '/api/v1/namespaces/default/pods';

async function create(name: string, containers: string[], nodeName?: string) {
  const r = await api.request('POST', pods, { body: { metadata: { name }, spec: { nodeName, containers: containers.map(c => ({ name: c, image: 'busybox' })), initContainers: [{ name: 'init', image: 'busybox' }] } } });
  assert.equal(r.status, 201, r.text());
}

test('a container must be named when there are several; it must be one of the pod\'s', async () => {
  await create('two', ['a', 'b']);
  for (const sub of ['exec', 'attach']) {
    const none = await api.request('POST', `${pods}/two/${sub}?command=true&stdout=true`);
    assert.equal(none.status, 400);
    assert.deepEqual([none.json().reason, none.json().message], ['BadRequest', 'a container name must be specified for pod two, choose one of: [init a b]']);
    const bad = await api.request('GET', `${pods}/two/${sub}?command=true&stdout=true&container=c`);
    assert.equal(bad.json().message, 'container c is not valid for pod two');
  }
});

test('a pod with no node has no agent to reach', async () => {
  await create('unscheduled', ['a']);
  for (const sub of ['exec', 'attach', 'portforward']) {
    const r = await api.request('POST', `${pods}/unscheduled/${sub}?command=true&stdout=true&ports=80`);
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'pod unscheduled does not have a host assigned');
  }
});

test('a valid request that does not upgrade is refused as kube-apiserver refuses it', async () => {
  await create('placed', ['a'], 'node-x');
  await api.request('POST', '/api/v1/nodes', { body: { metadata: { name: 'node-x' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } } });
  const r = await api.request('POST', `${pods}/placed/exec?command=true&stdout=true`);
  assert.equal(r.status, 400);
  assert.equal(r.json().message, 'Upgrade request required');
  assert.equal((await api.request('GET', `${pods}/missing/exec?command=true&stdout=true`)).status, 404);
  assert.equal((await api.request('PUT', `${pods}/placed/exec`)).status, 405);
});

test('the query becomes the kubelet\'s: input/output/error/tty as 1, booleans read as the parameter codec reads them', () => {
  const q = new URLSearchParams('stdin=true&stdout=1&stderr=false&tty=0&command=ls');
  assert.equal(streamQuery(q).toString(), 'input=1&output=1');
  assert.equal(queryBool(new URLSearchParams('x=FALSE'), 'x'), false);
  assert.equal(queryBool(new URLSearchParams('x=yes'), 'x'), true);
  assert.equal(queryBool(new URLSearchParams(''), 'x'), false);
});
