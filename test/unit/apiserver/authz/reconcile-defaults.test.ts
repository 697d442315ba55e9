import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterRoleBindingObject, clusterRoleObject, repaired } from '../../../../src/apiserver/authz/reconcile-defaults.ts';
import { defaultClusterRoleBindings, defaultClusterRoles } from '../../../../src/apiserver/authz/default-policy.ts';
import { controllerRoles } from '../../../../src/apiserver/authz/controller-roles.ts';

const role = (name: string) => clusterRoleObject(defaultClusterRoles.find(r => r.name === name)!);

test('defaults carry Kubernetes\' labels, annotation and aggregation rules', () => {
  const view = role('view');
  assert.deepEqual(view.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
  assert.deepEqual(view.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  assert.deepEqual(view.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
  const masters = clusterRoleBindingObject(defaultClusterRoleBindings.find(b => b.name === 'cluster-admin')!);
  assert.deepEqual(masters.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
  const dep = controllerRoles().find(r => r.name === 'system:controller:deployment-controller')!;
  assert.equal(dep.serviceAccount, 'deployment-controller');
  assert.deepEqual(dep.rules.at(-1), { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'update', 'patch'] });
});

test('reconciling puts back lost rules and subjects, keeps additions, and leaves autoupdate=false alone', () => {
  const want = role('system:discovery');
  assert.equal(repaired(want, want), undefined);
  const extra = { verbs: ['get'], nonResourceURLs: ['/extra'] };
  const trimmed = { ...want, rules: [extra] };
  assert.deepEqual(repaired(trimmed, want)!.rules, [extra, ...(want.rules as unknown[])]);
  assert.equal(repaired({ ...trimmed, metadata: { ...want.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } }, want), undefined);
  // an aggregated role's rules are the controller's
  const admin = role('admin');
  assert.equal(repaired({ ...admin, rules: [extra] }, admin), undefined);
  const binding = clusterRoleBindingObject(defaultClusterRoleBindings.find(b => b.name === 'system:public-info-viewer')!);
  const fixed = repaired({ ...binding, subjects: [] }, binding)!;
  assert.deepEqual(fixed.subjects, binding.subjects);
});

test('a default read back in the schema\'s field order is not repaired again', () => {
  // the store gives rules back verbs first: comparing by field order appended every rule again on each start
  const want = role('system:aggregate-to-admin');
  const stored = { ...want, rules: (want.rules as Array<Record<string, unknown>>).map(({ apiGroups, resources, verbs }) => ({ verbs, apiGroups, resources })) };
  assert.equal(repaired(stored, want), undefined);
  const binding = clusterRoleBindingObject(defaultClusterRoleBindings.find(b => b.name === 'system:public-info-viewer')!);
  const subjects = (binding.subjects as Array<Record<string, unknown>>).map(({ kind, name, apiGroup }) => ({ kind, name, apiGroup }));
  assert.equal(repaired({ ...binding, subjects }, binding), undefined);
});
