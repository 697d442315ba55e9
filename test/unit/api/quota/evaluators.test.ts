// What objects cost a quota, resource by resource, and which scoped quotas count a pod.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatorFor } from '../../../../src/api/quota/evaluators.ts';
import { podMatchesScope, scopeRequirements } from '../../../../src/api/quota/scopes.ts';

const pods = evaluatorFor('', 'pods');
const pod = (resources: any, extra: any = {}) => ({ metadata: { name: 'p', ...extra.metadata }, spec: { containers: [{ name: 'c', resources }], ...extra.spec }, status: extra.status ?? { phase: 'Pending' } });

test('a pod costs its requests and limits under every name quota gives them', () => {
  const p = pod({ requests: { cpu: '250m', memory: '64Mi', 'example.com/gpu': '1' }, limits: { cpu: '500m', memory: '128Mi' } });
  assert.deepEqual(pods.usage(p, 0), {
    'count/pods': '1', pods: '1', cpu: '250m', 'requests.cpu': '250m', memory: '64Mi', 'requests.memory': '64Mi',
    'limits.cpu': '500m', 'limits.memory': '128Mi', 'requests.example.com/gpu': '1',
  });
});

test('terminal pods and pods deleted past their grace period count only as objects', () => {
  const r = { requests: { cpu: '1' } };
  assert.deepEqual(pods.usage(pod(r, { status: { phase: 'Succeeded' } }), 0), { 'count/pods': '1' });
  assert.deepEqual(pods.usage(pod(r, { status: { phase: 'Failed' } }), 0), { 'count/pods': '1' });
  const deleting = pod(r, { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } });
  assert.equal(pods.usage(deleting, Date.parse('2026-01-01T00:00:20Z')).pods, '1', 'within its grace period it still counts');
  assert.deepEqual(pods.usage(deleting, Date.parse('2026-01-01T00:00:31Z')), { 'count/pods': '1' });
});

test('which hard names each evaluator counts', () => {
  const hard = ['pods', 'count/pods', 'requests.cpu', 'limits.memory', 'hugepages-2Mi', 'requests.example.com/gpu', 'services', 'configmaps', 'count/deployments.apps', 'requests.storage', 'gold.storageclass.storage.k8s.io/requests.storage'];
  assert.deepEqual(pods.matchingResources(hard), ['pods', 'count/pods', 'requests.cpu', 'limits.memory', 'hugepages-2Mi', 'requests.example.com/gpu']);
  assert.deepEqual(evaluatorFor('', 'services').matchingResources(hard), ['services']);
  assert.deepEqual(evaluatorFor('', 'configmaps').matchingResources(hard), ['configmaps']);
  assert.deepEqual(evaluatorFor('apps', 'deployments').matchingResources(hard), ['count/deployments.apps']);
  assert.deepEqual(evaluatorFor('', 'persistentvolumeclaims').matchingResources(hard), ['requests.storage', 'gold.storageclass.storage.k8s.io/requests.storage']);
});

test('services count node ports and load balancers; claims count storage per class', () => {
  const svc = evaluatorFor('', 'services');
  const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }];
  assert.deepEqual(svc.usage({ spec: { type: 'ClusterIP', ports } }, 0), { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  assert.equal(svc.usage({ spec: { type: 'NodePort', ports } }, 0)['services.nodeports'], '2');
  assert.deepEqual(svc.usage({ spec: { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false } }, 0), { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '1' });
  const pvc = evaluatorFor('', 'persistentvolumeclaims');
  assert.deepEqual(pvc.usage({ spec: { storageClassName: 'gold', resources: { requests: { storage: '1.5' } } } }, 0), {
    persistentvolumeclaims: '1', 'count/persistentvolumeclaims': '1', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
    'requests.storage': '2', 'gold.storageclass.storage.k8s.io/requests.storage': '2',
  });
});

test('other kinds count one object each; only creates change object counts', () => {
  const cm = evaluatorFor('', 'configmaps');
  assert.deepEqual(cm.usage({}, 0), { 'count/configmaps': '1', configmaps: '1' });
  assert.ok(cm.handles('CREATE', '') && !cm.handles('UPDATE', ''));
  assert.ok(pods.handles('UPDATE', 'resize') && !pods.handles('UPDATE', ''));
  assert.deepEqual(evaluatorFor('batch', 'jobs').usage({}, 0), { 'count/jobs.batch': '1' });
});

test('scopes: terminating, best effort, priority class selectors, cross-namespace affinity', () => {
  const be = pod({});
  const burst = pod({ requests: { cpu: '1' } }, { spec: { activeDeadlineSeconds: 10, priorityClassName: 'high' } });
  const s = (scopeName: string, operator = 'Exists', values?: string[]) => ({ scopeName, operator, values });
  assert.ok(podMatchesScope(s('BestEffort'), be) && !podMatchesScope(s('NotBestEffort'), be));
  assert.ok(podMatchesScope(s('Terminating'), burst) && podMatchesScope(s('NotTerminating'), be));
  assert.ok(podMatchesScope(s('PriorityClass'), burst) && !podMatchesScope(s('PriorityClass'), be));
  assert.ok(podMatchesScope(s('PriorityClass', 'In', ['high', 'mid']), burst));
  assert.ok(!podMatchesScope(s('PriorityClass', 'In', ['high']), be));
  assert.ok(podMatchesScope(s('PriorityClass', 'NotIn', ['high']), be));
  assert.ok(podMatchesScope(s('PriorityClass', 'DoesNotExist'), be));
  const affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'x', namespaces: ['other'] }] } };
  assert.ok(podMatchesScope(s('CrossNamespacePodAffinity'), pod({}, { spec: { affinity } })));
  assert.deepEqual(scopeRequirements({ scopes: ['BestEffort'], scopeSelector: { matchExpressions: [s('PriorityClass', 'In', ['x'])] } }),
    [s('BestEffort', 'Exists', undefined), s('PriorityClass', 'In', ['x'])].map(r => r.values ? r : { scopeName: r.scopeName, operator: r.operator }));
  assert.ok(!evaluatorFor('', 'services').matchesScope(s('BestEffort'), {}), 'only pods have scopes');
});
