// The ResourceQuota admission decision and its messages, and the controller's recount.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkQuotas, type Quota } from '../../../../src/api/quota/admission-check.ts';
import { evaluatorFor } from '../../../../src/api/quota/evaluators.ts';
import { calculateUsage, countedResources, nextQuotaStatus } from '../../../../src/api/quota/usage.ts';

const quota = (name: string, hard: Record<string, string>, used?: Record<string, string>, spec: any = {}): Quota =>
  ({ metadata: { name, resourceVersion: '5' }, spec: { hard, ...spec }, status: { hard, used } });
const pod = (name: string, resources: any = {}, spec: any = {}) => ({ metadata: { name }, spec: { containers: [{ name, resources }], ...spec }, status: {} });
const create = (object: any, resource = 'pods', group = '') => ({ evaluator: evaluatorFor(group, resource), operation: 'CREATE' as const, object, now: 0 });

test('within the limits a create is allowed and charged to every matching quota', () => {
  const d = checkQuotas([quota('q', { pods: '2', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '250m' }), quota('cm', { configmaps: '1' }, { configmaps: '0' })],
    create(pod('a', { requests: { cpu: '500m' } })));
  assert.ok(d.allowed);
  assert.deepEqual(d.charges.map(c => [c.quota.metadata.name, c.used]), [['q', { pods: '2', 'requests.cpu': '750m' }]]);
});

test('exceeding a quota is refused in Kubernetes\' words, listing only what is exceeded', () => {
  const d = checkQuotas([quota('q', { pods: '2', 'requests.cpu': '1' }, { pods: '2', 'requests.cpu': '250m' })], create(pod('a', { requests: { cpu: '500m' } })));
  assert.deepEqual(d, { allowed: false, message: 'exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2' });
  const two = checkQuotas([quota('q', { pods: '2', 'requests.cpu': '1' }, { pods: '2', 'requests.cpu': '750m' })], create(pod('a', { requests: { cpu: '500m' } })));
  assert.equal(!two.allowed && two.message, 'exceeded quota: q, requested: pods=1,requests.cpu=500m, used: pods=2,requests.cpu=750m, limited: pods=2,requests.cpu=1');
});

test('a compute quota needs every container to state what it limits', () => {
  const p = { metadata: { name: 'p' }, spec: { containers: [{ name: 'b', resources: {} }, { name: 'a', resources: { requests: { cpu: '1' } } }] } };
  const d = checkQuotas([quota('q', { 'limits.cpu': '2', 'requests.cpu': '2', 'limits.memory': '1Gi' }, {})], create(p));
  assert.equal(!d.allowed && d.message, 'failed quota: q: must specify limits.cpu for: a,b; limits.memory for: a,b; requests.cpu for: b');
});

test('a quota the controller has not counted yet refuses what it limits', () => {
  const d = checkQuotas([{ metadata: { name: 'q' }, spec: { hard: { pods: '1' } }, status: { hard: { pods: '1', secrets: '1' } } }], create(pod('a')));
  assert.equal(!d.allowed && d.message, 'status unknown for quota: q, resources: pods');
  const none = checkQuotas([{ metadata: { name: 'q' }, spec: { hard: { pods: '1' } } }], create(pod('a')));
  assert.ok(none.allowed && !none.charges.length, 'before the controller copies hard into status the quota limits nothing');
});

test('scoped quotas count only the pods their scopes match', () => {
  const be = quota('be', { pods: '1' }, { pods: '1' }, { scopes: ['BestEffort'] });
  assert.ok(checkQuotas([be], create(pod('a', { requests: { cpu: '1' }, limits: { cpu: '1' } }))).allowed);
  const d = checkQuotas([be], create(pod('a')));
  assert.equal(!d.allowed && d.message, 'exceeded quota: be, requested: pods=1, used: pods=1, limited: pods=1');
  const high = quota('high', { pods: '0' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  assert.ok(checkQuotas([high], create(pod('a'))).allowed);
  assert.ok(!checkQuotas([high], create(pod('a', {}, { priorityClassName: 'high' }))).allowed);
});

test('object counts and updates: a service turned NodePort is charged its ports only', () => {
  const d = checkQuotas([quota('q', { 'count/deployments.apps': '1' }, { 'count/deployments.apps': '1' })], create({ metadata: { name: 'd' } }, 'deployments', 'apps'));
  assert.equal(!d.allowed && d.message, 'exceeded quota: q, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  const q = quota('q', { services: '1', 'services.nodeports': '1' }, { services: '1', 'services.nodeports': '0' });
  const old = { metadata: { name: 's', resourceVersion: '3' }, spec: { type: 'ClusterIP', ports: [{ port: 1 }, { port: 2 }] } };
  const upd = { evaluator: evaluatorFor('', 'services'), operation: 'UPDATE' as const, object: { ...old, spec: { ...old.spec, type: 'NodePort' } }, oldObject: old, now: 0 };
  const u = checkQuotas([q], upd);
  assert.equal(!u.allowed && u.message, 'exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
});

test('the controller counts what the quota limits, zero included, and writes only changes', () => {
  const q = quota('q', { pods: '3', 'count/pods': '5', 'requests.memory': '1Gi', configmaps: '4', 'count/jobs.batch': '2' });
  q.status = undefined;
  assert.deepEqual(countedResources(Object.keys(q.spec!.hard!)).map(g => `${g.resource}.${g.group}`), ['pods.', 'configmaps.', 'jobs.batch']);
  const items = [pod('a', { requests: { memory: '256Mi' } }), { ...pod('b', { requests: { memory: '512Mi' } }), status: { phase: 'Succeeded' } }];
  const used = calculateUsage(q, [{ group: '', resource: 'pods', items }, { group: '', resource: 'configmaps', items: [] }, { group: 'batch', resource: 'jobs', items: [{}] }], 0);
  assert.deepEqual(used, { pods: '1', 'count/pods': '2', 'requests.memory': '256Mi', configmaps: '0', 'count/jobs.batch': '1' });
  const st = nextQuotaStatus(q, used);
  assert.deepEqual(st, { hard: q.spec!.hard, used });
  assert.equal(nextQuotaStatus({ ...q, status: st }, used), undefined);
  const lowered = nextQuotaStatus({ ...q, spec: { hard: { pods: '3' } }, status: st }, used);
  assert.deepEqual(lowered, { hard: { pods: '3' }, used: { pods: '1' } });
});
