import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isExemptFromWebhooks, ruleMatches, type RuleTarget } from '../../../../../../src/apiserver/admission/plugins/webhooks/rules.ts';

const pod: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'dev' };
const rule = (over: Record<string, unknown> = {}) => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...over });

test('operations, groups and versions match exactly or through *', () => {
  assert.equal(ruleMatches(rule(), pod), true);
  assert.equal(ruleMatches(rule({ operations: ['UPDATE'] }), pod), false);
  assert.equal(ruleMatches(rule({ operations: ['*'] }), { ...pod, operation: 'CONNECT' }), true);
  assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), pod), false);
  assert.equal(ruleMatches(rule({ apiGroups: ['*'], apiVersions: ['*'] }), pod), true);
  assert.equal(ruleMatches(rule({ apiVersions: ['v2'] }), pod), false);
});

test('resources: * covers main resources only; subresources are named or wildcarded after the slash', () => {
  const status = { ...pod, operation: 'UPDATE', subresource: 'status' };
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['*'] }), pod), true);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['*'] }), status), false);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['pods'] }), status), false);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['pods/status'] }), status), true);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['pods/*'] }), status), true);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['pods/*'] }), pod), true);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['*/status'] }), status), true);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['*/scale'] }), status), false);
  assert.equal(ruleMatches(rule({ operations: ['*'], resources: ['*/*'] }), status), true);
});

test('scope: Namespaced and Cluster, with Namespace objects cluster-scoped', () => {
  const ns: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'namespaces', subresource: '', namespace: 'dev' };
  const node: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'nodes', subresource: '', namespace: '' };
  const all = { resources: ['*'] };
  assert.equal(ruleMatches(rule({ ...all, scope: 'Namespaced' }), pod), true);
  assert.equal(ruleMatches(rule({ ...all, scope: 'Namespaced' }), node), false);
  assert.equal(ruleMatches(rule({ ...all, scope: 'Namespaced' }), ns), false);
  assert.equal(ruleMatches(rule({ ...all, scope: 'Cluster' }), ns), true);
  assert.equal(ruleMatches(rule({ ...all, scope: 'Cluster' }), node), true);
  assert.equal(ruleMatches(rule({ ...all, scope: 'Cluster' }), pod), false);
  assert.equal(ruleMatches(rule({ ...all, scope: '*' }), node), true);
});

test('admission configuration itself never goes to webhooks', () => {
  assert.equal(isExemptFromWebhooks('admissionregistration.k8s.io', 'validatingwebhookconfigurations'), true);
  assert.equal(isExemptFromWebhooks('admissionregistration.k8s.io', 'mutatingwebhookconfigurations'), true);
  assert.equal(isExemptFromWebhooks('admissionregistration.k8s.io', 'validatingadmissionpolicybindings'), true);
  assert.equal(isExemptFromWebhooks('', 'pods'), false);
});
