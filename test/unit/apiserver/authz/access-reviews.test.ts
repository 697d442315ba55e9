import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from '../../../../src/apiserver/authz/access-reviews.ts';
import { alwaysDeny, createChain } from '../../../../src/apiserver/authz/chain.ts';
import type { Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import type { RequestContext } from '../../../../src/apiserver/context.ts';
import { StatusError } from '../../../../src/api/status.ts';
import { virtualKind } from '../../../../src/apiserver/virtual-kinds.ts';
import { registerAccessReviews } from '../../../../src/apiserver/authz/access-reviews.ts';

// jane may list pods in dev; nothing else
const rbacLike: Authorizer = {
  authorize: a => ({ decision: a.user.name === 'jane' && a.verb === 'list' && a.resource === 'pods' && a.namespace === 'dev' ? 'allow' : 'no-opinion', reason: '' }),
  rulesFor: (u, ns) => ({ resourceRules: u.name === 'jane' && ns === 'dev' ? [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }] : [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }], incomplete: false }),
};
const ctx = (over: Partial<RequestContext> = {}) => ({ user: { name: 'jane', groups: ['system:authenticated'] }, authorizer: createChain([rbacLike]), info: { namespace: undefined }, ...over }) as unknown as RequestContext;
const obj = (spec: unknown, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'X', metadata, spec });

test('the four kinds are registered as virtual create-only kinds', () => {
  registerAccessReviews();
  for (const r of ['subjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']) assert.ok(virtualKind('authorization.k8s.io', r));
  assert.equal(virtualKind('', 'pods'), undefined);
});

test('SubjectAccessReview answers for the named user; validation in Kubernetes words', () => {
  const yes = subjectAccessReview(ctx(), obj({ user: 'jane', resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } }));
  assert.deepEqual(yes.status, { allowed: true });
  assert.deepEqual(subjectAccessReview(ctx(), obj({ user: 'bob', resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } })).status, { allowed: false });
  assert.deepEqual(subjectAccessReview(ctx({ authorizer: createChain([alwaysDeny]) }), obj({ user: 'bob', nonResourceAttributes: { path: '/x', verb: 'get' } })).status, { allowed: false, denied: true, reason: 'Everything is forbidden.' });
  assert.throws(() => subjectAccessReview(ctx(), obj({ resourceAttributes: { verb: 'get' } })), (e: StatusError) => e.code === 422 && e.message === 'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  assert.throws(() => subjectAccessReview(ctx(), obj({ user: 'x' })), (e: StatusError) => e.code === 422 && /spec\.resourceAttributes: Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified/.test(e.message));
});

test('LocalSubjectAccessReview is bound to its namespace; SelfSubjectAccessReview asks for the requester', () => {
  const l = localSubjectAccessReview(ctx({ info: { namespace: 'dev' } as never }), obj({ user: 'jane', resourceAttributes: { verb: 'list', resource: 'pods' } }));
  assert.deepEqual(l.status, { allowed: true });
  assert.throws(() => localSubjectAccessReview(ctx({ info: { namespace: 'dev' } as never }), obj({ user: 'jane', resourceAttributes: { namespace: 'prod', verb: 'list', resource: 'pods' } })), (e: StatusError) => e.code === 400 && e.message === 'spec.resourceAttributes.namespace must match namespace: dev');
  assert.deepEqual(selfSubjectAccessReview(ctx(), obj({ resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } })).status, { allowed: true });
  assert.deepEqual(selfSubjectAccessReview(ctx(), obj({ resourceAttributes: { namespace: 'dev', verb: 'delete', resource: 'pods' } })).status, { allowed: false });
});

test('SelfSubjectRulesReview lists the requester\'s rules in the namespace; masters get everything', () => {
  const r = selfSubjectRulesReview(ctx(), obj({ namespace: 'dev' }));
  assert.deepEqual(r.status, { resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }], incomplete: false });
  const root = selfSubjectRulesReview(ctx({ user: { name: 'admin', groups: ['system:masters'] } }), obj({ namespace: 'dev' }));
  assert.deepEqual((root.status as { resourceRules: unknown[] }).resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
});
