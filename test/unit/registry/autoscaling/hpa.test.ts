import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../../support/fake-request.ts';

test('autoscalers get Kubernetes\' defaults: one minimum replica, 80% CPU when no metric is named, behavior filled in', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  assert.equal((await api.request('POST', v2, { body: { metadata: { name: 'plain' }, spec: { scaleTargetRef: ref, maxReplicas: 5 } } })).status, 201);
  const plain = (await api.request('GET', `${v2}/plain`)).json();
  assert.equal(plain.spec.minReplicas, 1);
  assert.deepEqual(plain.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal(plain.spec.behavior, undefined, 'no behavior stays none: the controller\'s own path');

  const body = { metadata: { name: 'tuned' }, spec: { scaleTargetRef: ref, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } };
  assert.equal((await api.request('POST', v2, { body })).status, 201);
  const tuned = (await api.request('GET', `${v2}/tuned`)).json();
  assert.deepEqual(tuned.spec.behavior, {
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });

  // through autoscaling/v1 as kubectl autoscale writes it without --cpu-percent
  const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
  assert.equal((await api.request('POST', v1, { body: { metadata: { name: 'old' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } } })).status, 201);
  const old = (await api.request('GET', `${v1}/old`)).json();
  assert.deepEqual([old.spec.minReplicas, old.spec.targetCPUUtilizationPercentage], [1, 80]);
});
