// Served versions of one group and resource share their data; group versions follow --runtime-config.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
before(async () => {
  orch = await startOrch({ args: ['--runtime-config', 'networking.k8s.io/v1beta1=true'] });
  c = rawClient(orch.kubeconfig);
});
after(async () => { await orch.stop(); await orch.cleanup(); });

test('an object created through one version is read through the other, and names clash across versions', async () => {
  const v1 = '/apis/networking.k8s.io/v1/ipaddresses';
  const beta = '/apis/networking.k8s.io/v1beta1/ipaddresses';
  const spec = { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web' } };
  assert.equal((await c.request('POST', v1, { body: JSON.stringify({ metadata: { name: '10.96.7.7' }, spec }) })).status, 201);
  const read = await c.request('GET', `${beta}/10.96.7.7`);
  assert.equal(read.status, 200);
  assert.equal(read.json().apiVersion, 'networking.k8s.io/v1beta1');
  assert.deepEqual(read.json().spec, spec);
  const clash = await c.request('POST', beta, { body: JSON.stringify({ metadata: { name: '10.96.7.7' }, spec }) });
  assert.equal(clash.status, 409);
  assert.equal(clash.json().reason, 'AlreadyExists');
});

test('beta versions are off unless enabled', async () => {
  assert.equal((await c.request('GET', '/apis/networking.k8s.io/v1beta1')).status, 200);
  assert.equal((await c.request('GET', '/apis/coordination.k8s.io/v1beta1')).status, 404);
  const groups = (await c.request('GET', '/apis')).json().groups;
  const net = groups.find((g: { name: string }) => g.name === 'networking.k8s.io');
  assert.deepEqual(net.versions.map((v: { version: string }) => v.version), ['v1', 'v1beta1']);
});

test('deletecollection with a label selector deletes only what matches', async () => {
  const cms = '/api/v1/namespaces/default/configmaps';
  for (const [name, tier] of [['a', 'x'], ['b', 'x'], ['c', 'y']]) {
    assert.equal((await c.request('POST', cms, { body: JSON.stringify({ metadata: { name, labels: { tier } } }) })).status, 201);
  }
  const r = await c.request('DELETE', `${cms}?labelSelector=tier%3Dx`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json().items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['a', 'b']);
  const left = (await c.request('GET', `${cms}?labelSelector=tier`)).json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
  assert.deepEqual(left, ['c']);
});

test('PUT of an absent object creates it where Kubernetes allows, and is 404 elsewhere', async () => {
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-created' }, spec: {} };
  const r = await c.request('PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/put-created', { body: JSON.stringify(lease) });
  assert.equal(r.status, 201);
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'put-missing' } };
  assert.equal((await c.request('PUT', '/api/v1/namespaces/default/configmaps/put-missing', { body: JSON.stringify(cm) })).status, 404);
});
