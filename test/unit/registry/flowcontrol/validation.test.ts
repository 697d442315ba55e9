// FlowSchema and PriorityLevelConfiguration validation in kube-apiserver's words, and a write
// refused through the generic store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateFlowSchema, validatePriorityLevel } from '../../../../src/registry/flowcontrol/validation.ts';
import { defaultPriorityLevel } from '../../../../src/registry/flowcontrol/defaults.ts';
import { mandatoryFlowSchemas } from '../../../../src/registry/flowcontrol/bootstrap-objects.ts';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import { testRegistry } from '../../support/registry.ts';
import { StatusError } from '../../../../src/api/status.ts';

const msgs = (errs: Parameters<typeof fieldErrorMessage>[0][]) => errs.map(fieldErrorMessage);
const everyone = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] };
const fs = (name: string, spec: object) => validateFlowSchema({ metadata: { name }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 500, rules: [everyone], ...spec } } as never);
const pl = (name: string, spec: object) => {
  const obj = { metadata: { name }, spec } as never;
  defaultPriorityLevel(obj);
  return msgs(validatePriorityLevel(obj));
};

test('a valid FlowSchema has no errors; matchingPrecedence stays in 1..10000, 1 only for exempt', () => {
  assert.deepEqual(fs('mine', {}), []);
  assert.deepEqual(msgs(fs('mine', { matchingPrecedence: 0 })), ['spec.matchingPrecedence: Invalid value: 0: must be a positive value']);
  assert.deepEqual(msgs(fs('mine', { matchingPrecedence: 10001 })), ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']);
  assert.deepEqual(msgs(fs('mine', { matchingPrecedence: 1 })), ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"]);
  assert.deepEqual(msgs(fs('mine', { distinguisherMethod: { type: 'ByGroup' } })), ['spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser"']);
  assert.deepEqual(msgs(fs('mine', { priorityLevelConfiguration: { name: '' } })), ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']);
});

test('rules: subjects, wildcards alone, supported verbs, namespaces and non-resource paths', () => {
  assert.deepEqual(msgs(fs('mine', { rules: [{ subjects: [] }] })), [
    'spec.rules[0].subjects: Required value: subjects must contain at least one value',
    'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
  ]);
  const subject = (s: object) => msgs(fs('mine', { rules: [{ ...everyone, subjects: [s] }] }));
  assert.deepEqual(subject({ kind: 'Robot' }), ['spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"']);
  assert.deepEqual(subject({ kind: 'User', group: { name: 'g' } }), ["spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'", "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'"]);
  assert.deepEqual(subject({ kind: 'ServiceAccount', serviceAccount: { name: '*' } }), ['spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account']);
  const resource = (r: object) => msgs(fs('mine', { rules: [{ subjects: everyone.subjects, resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'], ...r }] }] }));
  assert.deepEqual(resource({}), []);
  assert.deepEqual(resource({ verbs: ['*', 'get'] }), ['spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if \'*\' is present, must not specify other verbs']);
  assert.deepEqual(resource({ verbs: ['get', 'escalate'] }), ['spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"get", "escalate"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"']);
  assert.deepEqual(resource({ apiGroups: [], resources: ['*', 'pods'] }), [
    'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'spec.rules[0].resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources',
  ]);
  assert.deepEqual(resource({ namespaces: [] }), ['spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace']);
  assert.deepEqual(resource({ namespaces: [], clusterScope: true }), []);
  assert.match(resource({ namespaces: ['Bad_NS'] })[0]!, /^spec\.rules\[0\]\.resourceRules\[0\]\.namespaces\[0\]: Invalid value: "Bad_NS": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of/);
  const path = (u: string) => msgs(fs('mine', { rules: [{ subjects: everyone.subjects, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [u] }] }] }));
  assert.deepEqual(path('/healthz/*'), []);
  assert.deepEqual(path('healthz'), ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash']);
  assert.deepEqual(path('/a//b'), ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a//b": must not contain double slash']);
  assert.deepEqual(path('/a/*/b'), ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a/*/b": wildcard can only do suffix matching']);
});

test('the mandatory FlowSchemas keep their fixed specs', () => {
  const exempt = mandatoryFlowSchemas.find(m => m.name === 'exempt')!;
  assert.deepEqual(validateFlowSchema({ metadata: { name: 'exempt' }, spec: structuredClone(exempt.spec) } as never), []);
  const edited = msgs(validateFlowSchema({ metadata: { name: 'exempt' }, spec: { ...structuredClone(exempt.spec), distinguisherMethod: { type: 'ByUser' } } } as never));
  assert.equal(edited.length, 1);
  assert.match(edited[0]!, /^spec: Invalid value: flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"exempt"\}, MatchingPrecedence:1, DistinguisherMethod:\(\*flowcontrol\.FlowDistinguisherMethod\)\(0xc000000000\), Rules:\[\]flowcontrol\.PolicyRulesWithSubjects\{flowcontrol\.PolicyRulesWithSubjects\{Subjects:\[\]flowcontrol\.Subject\{flowcontrol\.Subject\{Kind:"Group", User:\(\*flowcontrol\.UserSubject\)\(nil\), .*\}\}: spec of 'exempt' must equal the fixed value$/);
});

test('priority levels: type and name, limits, queuing that shuffle sharding can deal', () => {
  const queue = (q: object) => ({ type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: q } } });
  assert.deepEqual(pl('mine', queue({})), []);
  assert.deepEqual(pl('mine', queue({ queues: 7, handSize: 8 })), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)']);
  assert.deepEqual(pl('mine', queue({ queues: 512, handSize: 8 })), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60']);
  assert.deepEqual(pl('mine', queue({ queues: 10_000_000, handSize: 2 })), []);
  assert.deepEqual(pl('mine', queue({ queues: 10_000_001, queueLengthLimit: -1 })), [
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
    'spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000',
    // the hand defaulted to 8 needs more entropy than the hash has, as Kubernetes also reports
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 10000001 and handSize 8 should not be greater than 60',
  ]);
  assert.deepEqual(pl('mine', { type: 'Limited', limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -5, limitResponse: { type: 'Reject', queuing: {} } } }), [
    'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
    'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
    'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
    'spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer',
  ]);
  // v1 allows a level of zero shares
  assert.deepEqual(pl('mine', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } }), []);
  assert.deepEqual(pl('mine', { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } }), ['spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited']);
  assert.deepEqual(pl('mine', { type: 'Limited', exempt: {} }), ['spec.exempt: Forbidden: must be nil if the type is Limited', 'spec.limited: Required value: must not be empty when type is Limited']);
  assert.deepEqual(pl('mine', { type: 'Exempt', exempt: {} }), ['spec.type: Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'']);
  assert.deepEqual(pl('mine', { type: 'Sometimes' }), ['spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"']);
});

test('the mandatory levels: catch-all fixed, exempt tunable only in spec.exempt', () => {
  assert.deepEqual(pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 10, lendablePercent: 10 } }), []);
  assert.deepEqual(pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 } }), [
    'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
    'spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
  ]);
  assert.deepEqual(pl('exempt', { type: 'Limited', limited: { nominalConcurrencyShares: 42, limitResponse: { type: 'Reject' } } }), [
    'spec.type: Invalid value: "Limited": type must be \'Exempt\' if and only if name is \'exempt\'',
    'spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)(nil)}: spec of \'exempt\' except the \'spec.exempt\' field must equal the fixed value',
  ]);
  assert.deepEqual(pl('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } }), []);
  assert.deepEqual(pl('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 42, limitResponse: { type: 'Reject' } } }), [
    'spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000), Exempt:(*flowcontrol.ExemptPriorityLevelConfiguration)(nil)}: spec of \'catch-all\' must equal the fixed value',
  ]);
});

test('through the store: defaults applied, generation tracked, a bad write refused with a 422', async () => {
  const reg = await testRegistry();
  try {
    const info = reg.info('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations');
    const created = await reg.store.create(info, undefined, { metadata: { name: 'team' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 16 } } } } } as never) as never as { metadata: { generation: number }; spec: object };
    assert.equal(created.metadata.generation, 1);
    assert.deepEqual(created.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } } } });
    await assert.rejects(
      reg.store.create(info, undefined, { metadata: { name: 'bad' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4 } } } } } as never),
      (err: unknown) => err instanceof StatusError && err.code === 422
        && err.message === 'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)',
    );
  } finally {
    await reg.close();
  }
});
