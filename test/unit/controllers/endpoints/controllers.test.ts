import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { eventually, startInProcessApi } from '../../support/in-process-api.ts';

const ns = '/api/v1/namespaces/default';

async function runningPod(client: any, name: string, ip: string, ready: boolean, extra: Record<string, any> = {}) {
  const p = await client.create(`${ns}/pods`, { metadata: { name, labels: { app: 'web' } }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x', ports: [{ name: 'http', containerPort: 8080 }] }], ...extra } });
  p.status = { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
  return client.update(`${ns}/pods/${name}/status`, p);
}

test('a selector service gets its EndpointSlice and Endpoints, kept in step with its pods', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startControllers({ client, enabled: ['endpointslice', 'endpoint'], log: silentLogger });
  t.after(() => ctl.stop());

  await runningPod(client, 'a', '10.1.0.1', true);
  await runningPod(client, 'b', '10.1.0.2', false);
  const svc = await client.create(`${ns}/services`, { metadata: { name: 'web', labels: { team: 'x' } }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } });

  const slicesPath = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  const slice = await eventually(async () => (await client.list(slicesPath, { labelSelector: 'kubernetes.io/service-name=web' })).items.find((s: any) => s.endpoints?.length === 2), 'slice with two endpoints');
  assert.match(slice.metadata.name, /^web-[a-z0-9]{5}$/);
  assert.equal(slice.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
  assert.equal(slice.metadata.labels.team, 'x');
  assert.equal(slice.metadata.ownerReferences[0].uid, svc.metadata.uid);
  assert.ok(slice.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']);
  assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(slice.endpoints.map((e: any) => [e.addresses[0], e.conditions.ready, e.nodeName, e.targetRef.name]), [['10.1.0.1', true, 'n1', 'a'], ['10.1.0.2', false, 'n1', 'b']]);

  const ep = await eventually(async () => client.get(`${ns}/endpoints/web`), 'endpoints');
  assert.deepEqual(ep.metadata.labels, { team: 'x' });
  assert.deepEqual(ep.subsets.map((s: any) => [s.addresses?.map((a: any) => a.ip), s.notReadyAddresses?.map((a: any) => a.ip), s.ports]), [[['10.1.0.1'], ['10.1.0.2'], [{ name: 'http', port: 8080, protocol: 'TCP' }]]]);

  // b becomes ready, a is deleted: both objects follow
  const b = await client.get(`${ns}/pods/b`);
  b.status.conditions[0].status = 'True';
  await client.update(`${ns}/pods/b/status`, b);
  await client.delete(`${ns}/pods/a`, { gracePeriodSeconds: 0 });
  await eventually(async () => {
    const e = await client.get(`${ns}/endpoints/web`);
    return e.subsets?.length === 1 && e.subsets[0].addresses?.map((a: any) => a.ip).join() === '10.1.0.2' && !e.subsets[0].notReadyAddresses;
  }, 'endpoints with b ready only');
  await eventually(async () => {
    const items = (await client.list(slicesPath, { labelSelector: 'kubernetes.io/service-name=web' })).items;
    return items.length === 1 && items[0].endpoints?.length === 1 && items[0].endpoints[0].conditions.ready;
  }, 'one slice with b ready');

  // the service goes: its Endpoints and slices go
  await client.delete(`${ns}/services/web`);
  await eventually(async () => (await client.list(slicesPath, { labelSelector: 'kubernetes.io/service-name=web' })).items.length === 0, 'slices gone');
  await eventually(async () => client.get(`${ns}/endpoints/web`).then(() => false, (err: any) => err.code === 404), 'endpoints gone');
});

test('the kubernetes service has the API server\'s endpoints from the start; selectorless services get none', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const port = Number(new URL(api.config.server).port);
  const ep = await client.get(`${ns}/endpoints/kubernetes`);
  assert.deepEqual(ep.subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port, protocol: 'TCP' }] }]);
  assert.equal(ep.metadata.labels['endpointslice.kubernetes.io/skip-mirror'], 'true');
  const slice = await client.get('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes');
  assert.deepEqual([slice.addressType, slice.endpoints, slice.ports], ['IPv4', [{ addresses: ['127.0.0.1'], conditions: { ready: true } }], [{ name: 'https', port, protocol: 'TCP' }]]);

  const ctl = startControllers({ client, enabled: ['endpointslice-controller', 'endpoints-controller'], log: silentLogger });
  t.after(() => ctl.stop());
  await client.create(`${ns}/services`, { metadata: { name: 'manual' }, spec: { ports: [{ port: 80 }] } });
  await client.create(`${ns}/services`, { metadata: { name: 'empty' }, spec: { selector: { app: 'none' }, ports: [{ port: 80 }] } });
  const placeholder = await eventually(async () => (await client.list('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', { labelSelector: 'kubernetes.io/service-name=empty' })).items[0], 'placeholder slice');
  assert.equal(placeholder.endpoints, null, 'served as Kubernetes serves an empty list it stored');
  assert.equal(placeholder.ports, null);
  await eventually(async () => client.get(`${ns}/endpoints/empty`), 'empty endpoints');
  assert.equal((await client.list('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', { labelSelector: 'kubernetes.io/service-name=manual' })).items.length, 0);
  await assert.rejects(client.get(`${ns}/endpoints/manual`), (err: any) => err.code === 404);
  // the API server's own objects are left as they are
  assert.deepEqual((await client.get(`${ns}/endpoints/kubernetes`)).subsets, ep.subsets);
});

test('Endpoints written for a service without a selector are mirrored into EndpointSlices, and go with them', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startControllers({ client, enabled: ['endpointslicemirroring'], log: silentLogger });
  t.after(() => ctl.stop());
  const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  await client.create(`${ns}/services`, { metadata: { name: 'ext' }, spec: { ports: [{ name: 'db', port: 5432 }] } });
  const ep = await client.create(`${ns}/endpoints`, { metadata: { name: 'ext', labels: { team: 'x' } }, subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'db', port: 5432 }] }] });
  const slice = await eventually(async () => (await client.list(slices, { labelSelector: 'kubernetes.io/service-name=ext' })).items[0], 'mirrored slice');
  assert.equal(slice.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslicemirroring-controller.k8s.io');
  assert.equal(slice.metadata.labels.team, 'x');
  assert.deepEqual(slice.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: ep.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual([slice.addressType, slice.endpoints, slice.ports], ['IPv4', [{ addresses: ['192.0.2.10'], conditions: { ready: true } }], [{ name: 'db', port: 5432, protocol: 'TCP' }]]);

  ep.subsets[0].addresses.push({ ip: '192.0.2.11' });
  await client.update(`${ns}/endpoints/ext`, ep);
  await eventually(async () => (await client.get(`${slices}/${slice.metadata.name}`)).endpoints.length === 2, 'second address mirrored');
  await client.delete(`${ns}/endpoints/ext`);
  await eventually(async () => (await client.list(slices, { labelSelector: 'kubernetes.io/service-name=ext' })).items.length === 0, 'mirrored slice gone');
  // the API server's own Endpoints are marked not to be mirrored
  assert.equal((await client.list(slices, { labelSelector: 'endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io' })).items.length, 0);
});
