// SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview: virtual kinds answered by the server's authorizer chain, as
// kube-apiserver's authorization.k8s.io storage answers them (validated, never stored).

import { badRequest, invalid } from '../../api/status.ts';
import { localReviewSpecErrors, reviewSpecErrors, type ReviewSpec } from './review-validation.ts';
import type { KubeObject } from '../../api/object.ts';
import type { RequestContext, User } from '../context.ts';
import { registerVirtualKind } from '../virtual-kinds.ts';
import type { Attributes, Authorizer } from './attributes.ts';

const group = 'authorization.k8s.io';

type Spec = ReviewSpec;

function attributes(user: User, spec: Spec): Attributes {
  const r = spec.resourceAttributes;
  if (r) {
    return { user, verb: r.verb ?? '', isResourceRequest: true, path: '', apiGroup: r.group ?? '', apiVersion: r.version, resource: r.resource ?? '', subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '' };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', apiGroup: '', resource: '', subresource: '', namespace: '', name: '' };
}

function answer(obj: KubeObject, authz: Authorizer, a: Attributes): KubeObject {
  const r = authz.authorize(a);
  const status: Record<string, unknown> = { allowed: r.decision === 'allow' };
  if (r.decision === 'deny') status.denied = true;
  if (r.reason) status.reason = r.reason;
  return { ...obj, metadata: { ...obj.metadata, creationTimestamp: null }, status };
}

function authorizerOf(ctx: RequestContext): Authorizer {
  if (!ctx.authorizer || !ctx.user) throw new Error('access reviews need the authorizer chain and an authenticated user');
  return ctx.authorizer;
}

function subjectOf(spec: Spec): User {
  const u: User = { name: spec.user ?? '', groups: spec.groups ?? [] };
  if (spec.uid) u.uid = spec.uid;
  if (spec.extra) u.extra = spec.extra;
  return u;
}

export function subjectAccessReview(ctx: RequestContext, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as Spec;
  const errs = reviewSpecErrors(spec, true);
  if (errs.length) throw invalid('SubjectAccessReview', group, obj.metadata.name ?? '', errs);
  return answer(obj, authorizerOf(ctx), attributes(subjectOf(spec), spec));
}

export function localSubjectAccessReview(ctx: RequestContext, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as Spec;
  const namespace = ctx.info.namespace ?? '';
  if (obj.metadata.namespace && obj.metadata.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const errs = localReviewSpecErrors(spec, namespace);
  if (errs.length) throw invalid('LocalSubjectAccessReview', group, obj.metadata.name ?? '', errs);
  const a = attributes(subjectOf(spec), spec);
  a.namespace = namespace;
  return answer({ ...obj, metadata: { ...obj.metadata, namespace } }, authorizerOf(ctx), a);
}

export function selfSubjectAccessReview(ctx: RequestContext, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as Spec;
  const errs = reviewSpecErrors(spec, false);
  if (errs.length) throw invalid('SelfSubjectAccessReview', group, obj.metadata.name ?? '', errs);
  return answer(obj, authorizerOf(ctx), attributes(ctx.user!, spec));
}

export function selfSubjectRulesReview(ctx: RequestContext, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as { namespace?: string };
  const authz = authorizerOf(ctx);
  const rules = authz.rulesFor?.(ctx.user!, spec.namespace ?? '') ?? { resourceRules: [], nonResourceRules: [], incomplete: true };
  const status: Record<string, unknown> = {
    resourceRules: rules.resourceRules.map(r => ({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}) })),
    nonResourceRules: rules.nonResourceRules.map(r => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError) status.evaluationError = rules.evaluationError;
  return { ...obj, metadata: { ...obj.metadata, creationTimestamp: null }, status };
}

/** registers the four kinds; the server calls this once */
export function registerAccessReviews(): void {
  registerVirtualKind(group, 'subjectaccessreviews', subjectAccessReview);
  registerVirtualKind(group, 'localsubjectaccessreviews', localSubjectAccessReview);
  registerVirtualKind(group, 'selfsubjectaccessreviews', selfSubjectAccessReview);
  registerVirtualKind(group, 'selfsubjectrulesreviews', selfSubjectRulesReview);
}
