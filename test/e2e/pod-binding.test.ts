// pods/binding: how a scheduler places a pod.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';

test('a binding sets spec.nodeName and PodScheduled once; a second is a 409; bad targets are 422', async t => {
  // this test binds by hand
  const orch = await startOrch({ args: ['--disable-scheduler'] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  const pods = '/api/v1/namespaces/default/pods';
  assert.equal((await c.request('POST', pods, { body: JSON.stringify({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }) })).status, 201);
  const bind = (body: unknown) => c.request('POST', `${pods}/p/binding`, { body: JSON.stringify(body) });

  const missing = await bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Pod' } });
  assert.equal(missing.status, 422);
  assert.match(missing.json().message, /target\.name: Required value/);
  assert.match(missing.json().message, /target\.kind: Unsupported value: "Pod"/);

  const ok = await bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', annotations: { why: 'fits' } }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-a' } });
  assert.equal(ok.status, 201, ok.body);
  assert.deepEqual([ok.json().kind, ok.json().status, ok.json().code], ['Status', 'Success', 201]);
  const pod = (await c.request('GET', `${pods}/p`)).json();
  assert.equal(pod.spec.nodeName, 'node-a');
  assert.equal(pod.metadata.annotations.why, 'fits');
  assert.deepEqual(pod.status.conditions.filter((x: any) => x.type === 'PodScheduled').map((x: any) => x.status), ['True']);
  assert.equal(pod.status.phase, 'Pending');
  // admission's additions come after the field manager, as in Kubernetes: in the spec, owned by nobody
  assert.deepEqual([pod.spec.priority, pod.spec.serviceAccountName, pod.spec.tolerations.length], [0, 'default', 2]);
  const owned = Object.keys(pod.metadata.managedFields[0].fieldsV1['f:spec']);
  assert.ok(owned.includes('f:dnsPolicy') && owned.includes('f:containers'), owned.join(' '));
  for (const f of ['f:priority', 'f:serviceAccountName', 'f:tolerations']) assert.ok(!owned.includes(f), f);

  const again = await bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'node-b' } });
  assert.equal(again.status, 409);
  assert.equal(again.json().message, 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-a"');

  // nodeName stays immutable through ordinary updates
  const moved = await c.request('PUT', `${pods}/p`, { body: JSON.stringify({ ...pod, spec: { ...pod.spec, nodeName: 'node-b' } }) });
  assert.equal(moved.status, 422);
  assert.equal((await c.request('POST', `${pods}/nope/binding`, { body: JSON.stringify({ metadata: { name: 'nope' }, target: { name: 'n' } }) })).status, 404);
});
