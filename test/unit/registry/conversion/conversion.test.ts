// Version conversion: autoscaling/v1 ↔ v2 HorizontalPodAutoscalers through the annotations
// Kubernetes uses, resource.k8s.io v1beta1 ↔ v1 claims and slices, and objects written in one
// version read in another on get, list and watch.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { convertObject, toStorageVersion } from '../../../../src/registry/conversion/index.ts';
import { testApi, type TestApi } from '../../support/fake-request.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

const v2Hpa = {
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', annotations: { keep: 'me' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } }, target: { type: 'Value', value: '30' } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
  },
  status: {
    currentReplicas: 2, desiredReplicas: 3,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '100m' } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }],
  },
} as unknown as KubeObject;

test('HPA v2 → v1: the CPU target and current value as fields, everything else in annotations', () => {
  const v1 = convertObject(v2Hpa, 'autoscaling/v1') as any;
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.deepEqual(v1.spec, { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
  assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 });
  assert.deepEqual(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']), [
    { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
    { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'a' } }, targetValue: '30' } },
  ]);
  assert.deepEqual(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/current-metrics']), [{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 40, currentAverageValue: '100m' } }]);
  assert.ok(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/conditions']);
  assert.deepEqual(JSON.parse(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior']), { scaleDown: { stabilizationWindowSeconds: 60 } });
  assert.equal(v1.metadata.annotations.keep, 'me');
});

test('HPA v2 → v1 → v2 loses nothing (the CPU metric moves after the others, as Kubernetes orders it)', () => {
  const back = convertObject(convertObject(v2Hpa, 'autoscaling/v1'), 'autoscaling/v2') as any;
  const want = structuredClone(v2Hpa) as any;
  want.spec.metrics = [want.spec.metrics[0], want.spec.metrics[2], want.spec.metrics[1]];
  assert.deepEqual(back, want);
});

test('HPA v1 → v2 → v1 is lossless; v1 alone becomes a CPU Resource metric', () => {
  const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 70 } } as unknown as KubeObject;
  const v2 = toStorageVersion(v1) as any;
  assert.equal(v2.apiVersion, 'autoscaling/v2');
  assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  assert.deepEqual(convertObject(v2, 'autoscaling/v1'), v1);
});

test('resource.k8s.io v1beta1 ↔ v1: requests\' exact fields under exactly, devices\' fields out of basic', () => {
  const claim = { apiVersion: 'resource.k8s.io/v1beta1', kind: 'ResourceClaim', metadata: { name: 'c' }, spec: { devices: { requests: [{ name: 'gpu', deviceClassName: 'gpu.example.com', count: 2, allocationMode: 'ExactCount' }, { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] }] } } } as unknown as KubeObject;
  const v1 = toStorageVersion(claim) as any;
  assert.equal(v1.apiVersion, 'resource.k8s.io/v1');
  assert.deepEqual(v1.spec.devices.requests, [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', count: 2, allocationMode: 'ExactCount' } }, { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] }]);
  assert.deepEqual(convertObject(v1, 'resource.k8s.io/v1beta1'), claim);
  assert.equal(convertObject(v1, 'resource.k8s.io/v1beta2').spec, v1.spec, 'v1beta2 has v1\'s shape');
  const slice = { apiVersion: 'resource.k8s.io/v1beta1', kind: 'ResourceSlice', metadata: { name: 's' }, spec: { driver: 'd', devices: [{ name: 'dev0', basic: { attributes: { model: { string: 'x' } } } }] } } as unknown as KubeObject;
  const s1 = toStorageVersion(slice) as any;
  assert.deepEqual(s1.spec.devices, [{ name: 'dev0', attributes: { model: { string: 'x' } } }]);
  assert.deepEqual(convertObject(s1, 'resource.k8s.io/v1beta1'), slice);
});

test('kinds whose versions share a shape only change apiVersion', () => {
  const ip = { apiVersion: 'networking.k8s.io/v1beta1', kind: 'IPAddress', metadata: { name: '10.0.0.1' }, spec: { parentRef: { resource: 'services', name: 'x' } } } as unknown as KubeObject;
  assert.deepEqual(convertObject(ip, 'networking.k8s.io/v1'), { ...ip, apiVersion: 'networking.k8s.io/v1' });
});

let api: TestApi;
before(async () => { api = await testApi(); });
after(() => api.close());

const v1Path = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const v2Path = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

test('through the API: written in v2, read in v1 on get, list and watch; written back through v1, read in v2 whole', async () => {
  const start = (await api.request('GET', v2Path)).json().metadata.resourceVersion;
  const { apiVersion: _a, kind: _k, status: _s, ...body } = v2Hpa as any;
  const created = await api.request('POST', v2Path, { body });
  assert.equal(created.status, 201, created.text());
  const got = await api.request('GET', `${v1Path}/h`);
  assert.equal(got.status, 200);
  assert.equal(got.json().apiVersion, 'autoscaling/v1');
  assert.equal(got.json().spec.targetCPUUtilizationPercentage, 60);
  const list = await api.request('GET', v1Path);
  assert.equal(list.json().items[0].spec.targetCPUUtilizationPercentage, 60);
  assert.ok(list.json().items[0].metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']);
  const watch = await api.request('GET', `${v1Path}?watch=1&resourceVersion=${start}&timeoutSeconds=1`);
  const ev = JSON.parse(watch.text().trim().split('\n')[0]!);
  assert.deepEqual([ev.type, ev.object.apiVersion, ev.object.spec.targetCPUUtilizationPercentage], ['ADDED', 'autoscaling/v1', 60]);

  // a v1 client changes maxReplicas and writes back what it read
  const v1 = got.json();
  v1.spec.maxReplicas = 9;
  const put = await api.request('PUT', `${v1Path}/h`, { body: v1 });
  assert.equal(put.status, 200, put.text());
  assert.equal(put.json().apiVersion, 'autoscaling/v1');
  const v2 = (await api.request('GET', `${v2Path}/h`)).json();
  assert.equal(v2.spec.maxReplicas, 9);
  assert.equal(v2.spec.metrics.length, 3, 'the metrics v1 cannot hold came back from the annotations');
  // as written, with the parts Kubernetes defaults filled in
  assert.deepEqual(v2.spec.behavior, {
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  assert.deepEqual(v2.metadata.annotations, { keep: 'me' });
});
