import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startControllers } from '../../../../src/controllers/manager.ts';
import { eventually, startInProcessApi } from '../../support/in-process-api.ts';

const hpas = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string, replicas: number) {
  return {
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] } } },
  };
}
function autoscaler(name: string, target: string, min: number, max: number) {
  return {
    metadata: { name },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, minReplicas: min, maxReplicas: max, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
  };
}
const conditions = (h: any) => Object.fromEntries((h.status?.conditions ?? []).map((c: any) => [c.type, [c.status, c.reason, c.message]]));

test('autoscalers through the scale subresource: out-of-range targets brought back, no metrics said so, missing targets said so', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  const ctl = startControllers({ client, enabled: ['horizontalpodautoscaling'], log: silentLogger, settings: { hpaSyncPeriodMs: 200 } });
  t.after(() => ctl.stop());

  await client.create(deployments, deployment('big', 5));
  await client.create(deployments, deployment('web', 2));
  const pod = await client.create('/api/v1/namespaces/default/pods', { metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] } });
  pod.status = { phase: 'Running', startTime: '2026-01-01T00:00:00Z', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' }] };
  await client.update('/api/v1/namespaces/default/pods/web-1/status', pod);

  await client.create(hpas, autoscaler('big', 'big', 1, 3));
  await client.create(hpas, autoscaler('web', 'web', 1, 5));
  await client.create(hpas, autoscaler('lost', 'nope', 1, 5));

  // above max: the Deployment's replicas come down to it through /scale
  await eventually(async () => (await client.get(`${deployments}/big`)).spec.replicas === 3, 'big scaled to 3');
  const big = await eventually(async () => { const h = await client.get(`${hpas}/big`); return h.status?.lastScaleTime ? h : undefined; }, 'big status');
  assert.deepEqual(conditions(big).AbleToScale, ['True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 3']);
  assert.equal(big.status.desiredReplicas, 3);
  const event = await eventually(async () => (await client.list('/api/v1/namespaces/default/events')).items.find((e: any) => e.involvedObject.name === 'big' && e.reason === 'SuccessfulRescale'), 'rescale event');
  assert.equal(event.message, 'New size: 3; reason: Current number of replicas above Spec.MaxReplicas');
  assert.equal(event.source.component, 'horizontal-pod-autoscaler');

  // no node serves figures for the pod: ScalingActive False, in Kubernetes' words, and the scale is left alone
  const web = await eventually(async () => { const h = await client.get(`${hpas}/web`); return conditions(h).ScalingActive ? h : undefined; }, 'web conditions');
  assert.deepEqual(conditions(web), {
    AbleToScale: ['True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale'],
    ScalingActive: ['False', 'FailedGetResourceMetric', 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API'],
  });
  assert.equal(web.status.currentReplicas, 2);
  assert.equal((await client.get(`${deployments}/web`)).spec.replicas, 2);

  const lost = await eventually(async () => { const h = await client.get(`${hpas}/lost`); return conditions(h).AbleToScale ? h : undefined; }, 'lost conditions');
  assert.deepEqual(conditions(lost).AbleToScale, ['False', 'FailedGetScale', 'the HPA controller was unable to get the target\'s current scale: deployments.apps "nope" not found']);

  // the v1 view of the same object carries the conditions in its annotation, as kubectl 1.27 may read it
  const v1 = await client.get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web');
  assert.match(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/conditions'], /FailedGetResourceMetric/);
});

test('an autoscaler scales a custom resource through the scale subresource its CRD declares', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const { client } = api;
  await client.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'workers.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'workers', kind: 'Worker' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { count: { type: 'integer' } } }, status: { type: 'object', properties: { count: { type: 'integer' }, selector: { type: 'string' } } } } } },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.count', statusReplicasPath: '.status.count', labelSelectorPath: '.status.selector' } },
      }],
    },
  });
  const workers = '/apis/example.com/v1/namespaces/default/workers';
  await eventually(async () => client.list(workers).then(() => true, () => false), 'workers served');
  await client.create(workers, { apiVersion: 'example.com/v1', kind: 'Worker', metadata: { name: 'w' }, spec: { count: 1 } });
  const ctl = startControllers({ client, enabled: ['horizontalpodautoscaling'], log: silentLogger, settings: { hpaSyncPeriodMs: 200 } });
  t.after(() => ctl.stop());
  await client.create(hpas, { metadata: { name: 'w' }, spec: { scaleTargetRef: { apiVersion: 'example.com/v1', kind: 'Worker', name: 'w' }, minReplicas: 3, maxReplicas: 6, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] } });
  // below the minimum: raised to it through /scale, which writes the CRD's specReplicasPath
  await eventually(async () => (await client.get(`${workers}/w`)).spec.count === 3, 'the Worker scaled to 3');
  const h = await eventually(async () => { const x = await client.get(`${hpas}/w`); return x.status?.lastScaleTime ? x : undefined; }, 'hpa status');
  assert.deepEqual(conditions(h).AbleToScale, ['True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 3']);
});
