// Classification over a digested configuration: the bootstrap objects route each kind of client
// where kube-apiserver routes it; precedence, ties by name, distinguishers, dangling references
// and the imagined mandatory objects.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyWith } from '../../../../src/apiserver/flowcontrol/classifier.ts';
import { digest } from '../../../../src/apiserver/flowcontrol/digest.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from '../../../../src/registry/flowcontrol/bootstrap-objects.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';
import type { FlowcontrolV1FlowSchemaSpec, FlowcontrolV1PriorityLevelConfigurationSpec } from '../../../../src/schema/generated/types.ts';

const pl = (name: string, spec: FlowcontrolV1PriorityLevelConfigurationSpec) => ({ metadata: { name, uid: `pl-${name}` }, spec });
const fs = (name: string, spec: FlowcontrolV1FlowSchemaSpec) => ({ metadata: { name, uid: `fs-${name}` }, spec });
const defaults = () => digest(
  [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(o => pl(o.name, structuredClone(o.spec))),
  [...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(o => fs(o.name, structuredClone(o.spec))),
);
const req = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());
const authed = (name: string, ...groups: string[]) => ({ name, groups: [...groups, 'system:authenticated'] });

test('the defaults send each client where kube-apiserver sends it', () => {
  const config = defaults();
  const where = (user: { name: string; groups: string[] }, method: string, path: string) => {
    const c = classifyWith(config, user, req(method, path));
    return `${c.flowSchema.name}/${c.priorityLevel.name}`;
  };
  const admin = authed('kubernetes-admin', 'system:masters');
  assert.equal(where(admin, 'DELETE', '/api/v1/namespaces/default/pods/x'), 'exempt/exempt');
  assert.equal(where(admin, 'GET', '/metrics'), 'exempt/exempt');
  const node = authed('system:node:n1', 'system:nodes');
  // heartbeats (the Lease and the Node's status) have their own level; the rest of a node's traffic goes to system
  assert.equal(where(node, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1'), 'system-node-high/node-high');
  assert.equal(where(node, 'PATCH', '/api/v1/nodes/n1/status'), 'system-node-high/node-high');
  assert.equal(where(node, 'GET', '/api/v1/pods'), 'system-nodes/system');
  assert.equal(where(node, 'GET', '/api/v1/namespaces/default/secrets/s'), 'system-nodes/system');
  // probes are exempt for everybody, anonymous included
  assert.equal(where({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/readyz'), 'probes/exempt');
  assert.equal(where(authed('alice'), 'GET', '/livez/etcd'), 'probes/exempt');
  const kcm = authed('system:kube-controller-manager');
  assert.equal(where(kcm, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager'), 'system-leader-election/leader-election');
  assert.equal(where(kcm, 'GET', '/api/v1/pods'), 'kube-controller-manager/workload-high');
  assert.equal(where(authed('system:kube-scheduler'), 'POST', '/api/v1/namespaces/default/pods/p/binding'), 'kube-scheduler/workload-high');
  const ksa = authed('system:serviceaccount:kube-system:coredns', 'system:serviceaccounts', 'system:serviceaccounts:kube-system');
  assert.equal(where(ksa, 'GET', '/api/v1/services'), 'kube-system-service-accounts/workload-high');
  assert.equal(where(ksa, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/x'), 'system-leader-election/leader-election');
  const appSa = authed('system:serviceaccount:apps:web', 'system:serviceaccounts', 'system:serviceaccounts:apps');
  assert.equal(where(appSa, 'GET', '/api/v1/namespaces/apps/configmaps'), 'service-accounts/workload-low');
  assert.equal(where(authed('alice'), 'GET', '/api/v1/namespaces/default/pods'), 'global-default/global-default');
  assert.equal(where({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/version'), 'global-default/global-default');
});

test('flow distinguishers: by user, by namespace (a namespace names itself), none on exempt levels', () => {
  const config = defaults();
  const node = authed('system:node:n1', 'system:nodes');
  assert.equal(classifyWith(config, node, req('GET', '/api/v1/pods')).distinguisher, 'system:node:n1');
  const kcm = authed('system:kube-controller-manager');
  assert.equal(classifyWith(config, kcm, req('GET', '/api/v1/namespaces/apps/pods')).distinguisher, 'apps');
  assert.equal(classifyWith(config, kcm, req('GET', '/api/v1/namespaces/apps')).distinguisher, 'apps');
  assert.equal(classifyWith(config, kcm, req('GET', '/api/v1/nodes')).distinguisher, '');
  assert.equal(classifyWith(config, authed('root', 'system:masters'), req('GET', '/api/v1/pods')).distinguisher, '');
  // catch-all rejects rather than queues: one flow
  const onlyMandatory = digest(mandatoryPriorityLevels.map(o => pl(o.name, o.spec)), mandatoryFlowSchemas.map(o => fs(o.name, o.spec)));
  const c = classifyWith(onlyMandatory, authed('alice'), req('GET', '/api/v1/pods'));
  assert.equal(c.flowSchema.name, 'catch-all');
  assert.equal(c.distinguisher, '');
  assert.deepEqual(c.priorityLevel, { name: 'catch-all', uid: 'pl-catch-all', exempt: false, nominalConcurrencyShares: 5, lendablePercent: 0 });
});

test('order: lower matchingPrecedence first, then name; default precedence 1000', () => {
  const everyone = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] };
  const levels = [pl('exempt', { type: 'Exempt', exempt: {} }), pl('catch-all', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }), pl('a', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } })];
  const at = (precedences: Record<string, number | undefined>) => classifyWith(
    digest(levels, Object.entries(precedences).map(([name, p]) => fs(name, { priorityLevelConfiguration: { name: 'a' }, matchingPrecedence: p, rules: [everyone] }))),
    authed('alice'), req('GET', '/api/v1/pods'),
  ).flowSchema.name;
  assert.equal(at({ late: 2000, early: 1500 }), 'early');
  assert.equal(at({ zeta: 700, alpha: 700 }), 'alpha');
  assert.equal(at({ unset: undefined, explicit: 999 }), 'explicit');
  assert.equal(at({ unset: undefined, explicit: 1001 }), 'unset');
  // the level's v1 defaults: 30 shares, 64 queues of 50, hands of 8
  const level = classifyWith(digest(levels, [fs('x', { priorityLevelConfiguration: { name: 'a' }, rules: [everyone] })]), authed('alice'), req('GET', '/api/v1/pods')).priorityLevel;
  assert.deepEqual(level, { name: 'a', uid: 'pl-a', exempt: false, nominalConcurrencyShares: 30, lendablePercent: 0, queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } });
});

test('a schema naming a missing or unusable level is skipped, and reported as not found', () => {
  const everyone = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
  const config = digest(
    // a limited level named exempt, and queues smaller than the hand, are both ignored
    [pl('exempt', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }), pl('bad', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 4 } } } })],
    [fs('to-missing', { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 10, rules: [everyone] }), fs('to-bad', { priorityLevelConfiguration: { name: 'bad' }, matchingPrecedence: 20, rules: [everyone] })],
  );
  assert.deepEqual([...config.found], [['to-missing', false], ['to-bad', false]]);
  // neither mandatory object is stored: both are imagined, without uids
  assert.deepEqual(config.schemas.map(s => `${s.name}:${s.uid}`), ['exempt:', 'catch-all:']);
  const c = classifyWith(config, authed('alice'), req('GET', '/version'));
  assert.equal(c.flowSchema.name, 'catch-all');
  assert.equal(c.priorityLevel.uid, '');
  assert.equal(classifyWith(config, authed('root', 'system:masters'), req('GET', '/version')).priorityLevel.exempt, true);
  assert.deepEqual([...config.levels.keys()].sort(), ['catch-all', 'exempt']);
  // a level of neither type is ignored too
  assert.equal(digest([pl('odd', { type: '' })], []).levels.has('odd'), false);
});

test('one noisy node cannot take its neighbours\' flows: each node is its own flow on node-high and system', () => {
  const config = defaults();
  const lease = (n: string) => classifyWith(config, authed(`system:node:${n}`, 'system:nodes'), req('PUT', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${n}`));
  const noisy = classifyWith(config, authed('system:node:noisy', 'system:nodes'), req('GET', '/api/v1/pods'));
  assert.equal(noisy.priorityLevel.name, 'system');
  assert.notEqual(lease('quiet').priorityLevel.name, noisy.priorityLevel.name);
  assert.notEqual(lease('quiet').distinguisher, lease('noisy').distinguisher);
});
