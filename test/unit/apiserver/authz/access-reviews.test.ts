import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from '../../../../src/apiserver/authz/access-reviews.ts';
import { alwaysDeny, createChain } from '../../../../src/apiserver/authz/chain.ts';
import type { Authorizer } from '../../../../src/apiserver/authz/attributes.ts';
import type { RequestContext } from '../../../../src/apiserver/context.ts';
import { StatusError } from '../../../../src/api/status.ts';
import type { KubeObject } from '../../../../src/api/object.ts';
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
  // AlwaysDeny has no opinion: not allowed, not denied, with its reason (as kube-apiserver answers)
  assert.deepEqual(subjectAccessReview(ctx({ authorizer: createChain([alwaysDeny]) }), obj({ user: 'bob', nonResourceAttributes: { path: '/x', verb: 'get' } })).status, { allowed: false, reason: 'Everything is forbidden.' });
  const denying: Authorizer = { authorize: () => ({ decision: 'deny', reason: 'no way' }) };
  assert.deepEqual(subjectAccessReview(ctx({ authorizer: createChain([denying]) }), obj({ user: 'bob', nonResourceAttributes: { path: '/x', verb: 'get' } })).status, { allowed: false, denied: true, reason: 'no way' });
  assert.throws(() => subjectAccessReview(ctx(), obj({ resourceAttributes: { verb: 'get' } })), (e: StatusError) => e.code === 422 && e.message === 'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  // the union is reported on spec with the nonResourceAttributes as its value, as declarative validation words it
  assert.throws(() => subjectAccessReview(ctx(), obj({ user: 'x' })), (e: StatusError) => e.code === 422 && e.message === 'SubjectAccessReview.authorization.k8s.io "" is invalid: spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified');
  assert.throws(() => subjectAccessReview(ctx(), obj({ user: 'x', resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } })),
    (e: StatusError) => e.message === 'SubjectAccessReview.authorization.k8s.io "" is invalid: spec: Invalid value: {"path":"/x","verb":"get"}: exactly one of nonResourceAttributes or resourceAttributes must be specified');
});

test('LocalSubjectAccessReview is bound to its namespace; SelfSubjectAccessReview asks for the requester', () => {
  const l = localSubjectAccessReview(ctx({ info: { namespace: 'dev' } as never }), obj({ user: 'jane', resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } }));
  assert.deepEqual(l.status, { allowed: true });
  // the attributes' namespace must be the review's, even when left empty; paths are not for this kind
  for (const ns of ['prod', undefined]) {
    assert.throws(() => localSubjectAccessReview(ctx({ info: { namespace: 'dev' } as never }), obj({ user: 'jane', resourceAttributes: { namespace: ns, verb: 'list', resource: 'pods' } })),
      (e: StatusError) => e.code === 422 && e.message === `LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "${ns ?? ''}": must match metadata.namespace`);
  }
  assert.throws(() => localSubjectAccessReview(ctx({ info: { namespace: 'dev' } as never }), obj({ user: 'jane', nonResourceAttributes: { path: '/x', verb: 'get' } })),
    (e: StatusError) => e.message === 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/x","verb":"get"}: disallowed on this kind of request');
  assert.deepEqual(selfSubjectAccessReview(ctx(), obj({ resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods' } })).status, { allowed: true });
  assert.deepEqual(selfSubjectAccessReview(ctx(), obj({ resourceAttributes: { namespace: 'dev', verb: 'delete', resource: 'pods' } })).status, { allowed: false });
});

test('SelfSubjectRulesReview lists the requester\'s rules in the namespace; masters get everything', () => {
  const r = selfSubjectRulesReview(ctx(), obj({ namespace: 'dev' }));
  assert.deepEqual(r.status, { resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }], incomplete: false });
  const root = selfSubjectRulesReview(ctx({ user: { name: 'admin', groups: ['system:masters'] } }), obj({ namespace: 'dev' }));
  assert.deepEqual((root.status as { resourceRules: unknown[] }).resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
});

test('field and label selector attributes (1.31+) are validated as Kubernetes does; unknown operators pass', () => {
  const review = (fieldSelector: unknown, labelSelector?: unknown) => obj({ user: 'jane', resourceAttributes: { namespace: 'dev', verb: 'list', resource: 'pods', fieldSelector, labelSelector } });
  const fails = (o: KubeObject, message: string) => assert.throws(() => subjectAccessReview(ctx(), o), (e: StatusError) => e.code === 422 && e.message === `SubjectAccessReview.authorization.k8s.io "" is invalid: ${message}`);
  assert.deepEqual(subjectAccessReview(ctx(), review({ rawSelector: 'spec.nodeName=n1' }, { requirements: [{ key: 'app', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'Future' }] })).status, { allowed: true });
  fails(review({}), 'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required');
  fails(review({ rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] }), 'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements');
  fails(review({ requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['a', 'b'] }] }), "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified single value when `operator` is 'In' or 'NotIn'");
  fails(review({ requirements: [{ operator: 'Exists', values: ['a'] }] }), "[spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.fieldSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist']");
  fails(review(undefined, { requirements: [{ key: 'app', operator: 'NotIn' }] }), "spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
  assert.throws(() => subjectAccessReview(ctx(), review(undefined, { requirements: [{ key: 'bad key', operator: 'Exists' }] })),
    (e: StatusError) => e.message.startsWith('SubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "bad key": name part must consist of'));
});
