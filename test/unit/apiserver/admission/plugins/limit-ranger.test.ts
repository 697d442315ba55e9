// LimitRanger through the handlers: defaults given to a new pod's containers with Kubernetes'
// annotation (and the QoS class they make), min/max refusals as Kubernetes' 403, claims checked.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApi, type TestApi } from '../../../support/fake-request.ts';

let api: TestApi;
before(async () => {
  api = await testApi({ admission: ['NamespaceLifecycle', 'LimitRanger'] });
  assert.equal((await api.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'lr' } } })).status, 201);
  const limits = [
    { type: 'Container', max: { cpu: '1' }, default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } },
    { type: 'PersistentVolumeClaim', max: { storage: '10Gi' } },
  ];
  assert.equal((await api.request('POST', '/api/v1/namespaces/lr/limitranges', { body: { metadata: { name: 'limits' }, spec: { limits } } })).status, 201);
});
after(() => api.close());

const pod = (name: string, resources: unknown = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox', resources }] } });

test('a pod\'s containers get the defaults they lack, annotated as Kubernetes annotates them', async () => {
  const r = await api.request('POST', '/api/v1/namespaces/lr/pods', { body: pod('p') });
  assert.equal(r.status, 201);
  const p = r.json();
  assert.deepEqual(p.spec.containers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
  assert.equal(p.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
  assert.equal(p.status.qosClass, 'Burstable', 'the class follows the defaults');
});

test('limits past max are 403 in Kubernetes\' words; claims are held to their max', async () => {
  const r = await api.request('POST', '/api/v1/namespaces/lr/pods', { body: pod('big', { limits: { cpu: '2' } }) });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } } };
  const c = await api.request('POST', '/api/v1/namespaces/lr/persistentvolumeclaims', { body: claim });
  assert.equal(c.status, 403);
  assert.equal(c.json().message, 'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
});
