import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RbacIndex } from '../../../../src/apiserver/authz/rbac-index.ts';
import { rbacWriteCheck } from '../../../../src/apiserver/authz/escalation.ts';
import { compactMissing } from '../../../../src/apiserver/authz/escalation-message.ts';
import { createChain } from '../../../../src/apiserver/authz/chain.ts';
import type { Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import { ruleAllows } from '../../../../src/apiserver/authz/rules.ts';
import { StatusError } from '../../../../src/api/status.ts';

const rbac = 'rbac.authorization.k8s.io';
const jane = { name: 'jane', groups: ['system:authenticated'] };

function setup() {
  const ix = new RbacIndex();
  ix.apply('ClusterRole', { metadata: { name: 'pods-rw' }, rules: [{ verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['pods', 'pods/log'] }, { verbs: ['create'], apiGroups: [rbac], resources: ['roles', 'rolebindings'] }] }, false);
  ix.apply('ClusterRole', { metadata: { name: 'big' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] }, false);
  ix.apply('RoleBinding', { metadata: { name: 'j', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'pods-rw' }, subjects: [{ kind: 'User', name: 'jane' }] }, false);
  const rbacAuthz: Authorizer = { authorize: a => ({ decision: ix.rulesFor(a.user, a.namespace).rules.some(r => ruleAllows(a, r)) ? 'allow' : 'no-opinion', reason: '' }) };
  return { ix, authz: createChain([rbacAuthz]) };
}

function refusal(fn: () => void): string {
  try { fn(); } catch (err) { assert.ok(err instanceof StatusError); assert.equal(err.code, 403); return err.message; }
  assert.fail('not refused');
}

test('covering: held rules cover wanted ones atom by atom; what is missing is compacted by group and resource', () => {
  const held = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }, { verbs: ['get'], nonResourceURLs: ['/apis/*'] }];
  assert.deepEqual(compactMissing(held, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), []);
  assert.deepEqual(compactMissing(held, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]), []);
  assert.deepEqual(compactMissing(held, [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }]), []);
  assert.deepEqual(compactMissing(held, [{ verbs: ['get', 'delete', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] }]), [
    { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'watch'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'delete', 'watch'] },
  ]);
  // a named rule held covers only that name
  assert.equal(compactMissing([{ verbs: ['get'], apiGroups: [''], resources: ['cm'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['cm'] }]).length, 1);
});

test('a Role with rules its writer lacks is refused in Kubernetes words; one within them passes', () => {
  const { ix, authz } = setup();
  const check = rbacWriteCheck(jane, rbac, 'roles', 'dev', authz, ix)!;
  check({ metadata: { name: 'ok' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }] });
  assert.equal(refusal(() => check({ metadata: { name: 'big' }, rules: [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'nodes'] }] })),
    'roles.rbac.authorization.k8s.io "big" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
    '{APIGroups:[""], Resources:["nodes"], Verbs:["get" "delete"]}\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
  // an update that keeps the rules passes whatever they are
  const kept = { metadata: { name: 'old' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
  check({ ...kept, metadata: { name: 'old', labels: { a: 'b' } } }, kept);
});

test('escalate and bind lift the checks; system:masters is never checked', () => {
  const { ix, authz } = setup();
  const wide = { metadata: { name: 'w' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
  const binding = { metadata: { name: 'b' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'big' }, subjects: [{ kind: 'User', name: 'bob' }] };
  assert.match(refusal(() => rbacWriteCheck(jane, rbac, 'rolebindings', 'dev', authz, ix)!(binding)), /^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "jane" .*\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}$/);
  assert.equal(refusal(() => rbacWriteCheck(jane, rbac, 'rolebindings', 'dev', authz, ix)!({ ...binding, roleRef: { apiGroup: rbac, kind: 'Role', name: 'nope' } })),
    'rolebindings.rbac.authorization.k8s.io "b" is forbidden: role.rbac.authorization.k8s.io "nope" not found');
  ix.apply('ClusterRole', { metadata: { name: 'power' }, rules: [{ verbs: ['escalate'], apiGroups: [rbac], resources: ['roles'] }, { verbs: ['bind'], apiGroups: [rbac], resources: ['clusterroles'], resourceNames: ['big'] }] }, false);
  ix.apply('RoleBinding', { metadata: { name: 'p', namespace: 'dev' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'power' }, subjects: [{ kind: 'User', name: 'jane' }] }, false);
  rbacWriteCheck(jane, rbac, 'roles', 'dev', authz, ix)!(wide);
  rbacWriteCheck(jane, rbac, 'rolebindings', 'dev', authz, ix)!(binding);
  assert.equal(rbacWriteCheck({ name: 'root', groups: ['system:masters'] }, rbac, 'clusterroles', '', authz, ix), undefined);
  assert.equal(rbacWriteCheck(jane, '', 'pods', 'dev', authz, ix), undefined);
});

test('an aggregationRule needs full authority', () => {
  const { ix, authz } = setup();
  const check = rbacWriteCheck(jane, rbac, 'clusterroles', '', authz, ix)!;
  assert.equal(refusal(() => check({ metadata: { name: 'agg' }, rules: [], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } })),
    'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
});
