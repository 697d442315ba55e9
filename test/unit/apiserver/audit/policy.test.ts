import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePolicy, parsePolicy, ruleMatches, type AuditAttributes, type PolicyRule } from '../../../../src/apiserver/audit/policy.ts';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const pods = (extra: Partial<AuditAttributes> = {}): AuditAttributes => ({ user: alice, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns1/pods/p', apiGroup: '', resource: 'pods', namespace: 'ns1', name: 'p', ...extra });
const healthz: AuditAttributes = { user: alice, verb: 'get', isResourceRequest: false, path: '/healthz/etcd', apiGroup: '', resource: '' };

test('rules match by user, group, verb, namespace, resource and name', () => {
  const m = (rule: Omit<PolicyRule, 'level'>, a = pods()) => ruleMatches({ level: 'Metadata', ...rule }, a);
  assert.equal(m({ users: ['alice'] }), true);
  assert.equal(m({ users: ['bob'] }), false);
  assert.equal(m({ userGroups: ['devs'] }), true);
  assert.equal(m({ userGroups: ['ops'] }), false);
  assert.equal(m({ verbs: ['list', 'get'] }), true);
  assert.equal(m({ verbs: ['create'] }), false);
  assert.equal(m({ namespaces: ['ns1'] }), true);
  assert.equal(m({ namespaces: ['ns2'] }), false);
  // an empty namespace in the list names cluster-scoped requests
  assert.equal(m({ namespaces: [''] }, pods({ resource: 'nodes', namespace: undefined })), true);
  assert.equal(m({ resources: [{ group: '', resources: ['pods'] }] }), true);
  assert.equal(m({ resources: [{ group: 'apps', resources: ['pods'] }] }), false);
  assert.equal(m({ resources: [{ group: '' }] }), true);
  assert.equal(m({ resources: [{ group: '', resources: ['pods'], resourceNames: ['p'] }] }), true);
  assert.equal(m({ resources: [{ group: '', resources: ['pods'], resourceNames: ['q'] }] }), false);
});

test('resources match subresources as pod/log, */log, pods/* and *', () => {
  const log = pods({ subresource: 'log' });
  const m = (resources: string[], a = log) => ruleMatches({ level: 'Metadata', resources: [{ group: '', resources }] }, a);
  assert.equal(m(['pods']), false);
  assert.equal(m(['pods/log']), true);
  assert.equal(m(['*/log']), true);
  assert.equal(m(['*/status']), false);
  assert.equal(m(['pods/*']), true);
  assert.equal(m(['pods/*'], pods()), true);
  assert.equal(m(['*']), true);
});

test('non-resource URLs match exactly or by a trailing *, and resource rules never match them', () => {
  assert.equal(ruleMatches({ level: 'Metadata', nonResourceURLs: ['/healthz*'] }, healthz), true);
  assert.equal(ruleMatches({ level: 'Metadata', nonResourceURLs: ['/healthz'] }, healthz), false);
  assert.equal(ruleMatches({ level: 'Metadata', nonResourceURLs: ['/healthz/etcd'] }, healthz), true);
  assert.equal(ruleMatches({ level: 'Metadata', resources: [{ group: '' }] }, healthz), false);
  assert.equal(ruleMatches({ level: 'Metadata', nonResourceURLs: ['*'] }, pods()), false);
  assert.equal(ruleMatches({ level: 'Metadata' }, healthz), true);
});

test('the first matching rule decides; omitStages join the policy\'s; no match is None', () => {
  const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: None
  users: [system:kube-proxy]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  omitStages: [ResponseStarted]
  omitManagedFields: false
- level: Metadata
  verbs: [get]
`);
  assert.equal(evaluatePolicy(policy, pods({ user: { name: 'system:kube-proxy', groups: [] } })).level, 'None');
  const cm = evaluatePolicy(policy, pods({ resource: 'configmaps' }));
  assert.equal(cm.level, 'RequestResponse');
  assert.deepEqual([...cm.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
  assert.equal(cm.omitManagedFields, false);
  const get = evaluatePolicy(policy, pods());
  assert.equal(get.level, 'Metadata');
  assert.equal(get.omitManagedFields, true);
  assert.equal(evaluatePolicy(policy, pods({ verb: 'delete' })).level, 'None');
});

test('a policy per level: each level is what the matching rule says', () => {
  for (const level of ['None', 'Metadata', 'Request', 'RequestResponse'] as const) {
    const policy = parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: ${level}\n`);
    assert.equal(evaluatePolicy(policy, pods()).level, level);
  }
});

test('bad policies are refused with kube-apiserver\'s messages', () => {
  const bad = (text: string, message: string | RegExp) => assert.throws(() => parsePolicy(text), { message });
  const head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';
  bad(`${head}rules: []\n`, 'loaded illegal policy with 0 rules');
  bad('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n', 'unknown group version field audit.k8s.io/v1beta1, Kind=Policy in policy');
  bad(`${head}rules: [{level: Loud}]\n`, 'rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"');
  bad(`${head}rules: [{users: [a]}]\n`, 'rules[0].level: Required value');
  bad(`${head}rules: [{level: None, nonResourceURLs: [healthz]}]\n`, 'rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a \'/\' character');
  bad(`${head}rules: [{level: None, nonResourceURLs: ["/a*b"]}]\n`, 'rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards \'*\' must be the final character of the rule');
  bad(`${head}rules: [{level: None, omitStages: [Done]}]\n`, 'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic');
  bad(`${head}rules: [{level: None, resources: [{resourceNames: [x]}]}]\n`, 'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource');
  bad(`${head}rules: [{level: None, nonResourceURLs: ["/x"], namespaces: [a]}]\n`, 'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs');
  bad(`${head}rules: [{level: None, resources: [{group: "Apps/v1"}]}]\n`, /^rules\[0\]\.resources\.group: Invalid value: "Apps\/v1": a lowercase RFC 1123 subdomain/);
});
