// The authorization step of the request pipeline: anonymous requests (when allowed), then
// impersonation, then the authorizer chain on the request's attributes; a denial is a 403 before
// any handler runs, so nothing of an object reaches a user who may not read it.

import type { IncomingHttpHeaders } from 'node:http';
import { StatusError, unauthorized } from '../../api/status.ts';
import type { RequestContext, User } from '../context.ts';
import { attributesOf, type Authorizer } from './attributes.ts';
import { forbiddenError } from './forbidden.ts';
import { anonymousUser, impersonate, unauthenticatedGroup, wantsImpersonation } from './impersonation.ts';
import type { RbacIndex } from './rbac-index.ts';
import { rbacWriteCheck } from './escalation.ts';

export interface RequestAuthorization {
  authorizer: Authorizer;
  /** requests without credentials run as system:anonymous (else they get 401) */
  anonymous: boolean;
  /** the RBAC index, when RBAC is on: role and binding writes are checked for escalation */
  rbac?: RbacIndex;
}

/**
 * `authenticated`: the user the credentials name; undefined when none were sent, 'rejected'
 * when some were sent and failed (a 401 even with anonymous requests allowed, as in Kubernetes)
 */
export function authorizeRequest(ctx: RequestContext, authenticated: User | undefined | 'rejected', headers: IncomingHttpHeaders, setup: RequestAuthorization): void {
  authorizeIdentified(ctx, identifyRequest(ctx, authenticated, headers, setup), setup);
}

/**
 * Who the request runs as: the authenticated user, anonymous, or whom it impersonates. Flow
 * control classifies this user between this step and authorization, as in Kubernetes.
 */
export function identifyRequest(ctx: RequestContext, authenticated: User | undefined | 'rejected', headers: IncomingHttpHeaders, setup: RequestAuthorization): User {
  if (authenticated === 'rejected' || (!authenticated && !setup.anonymous)) throw unauthorized();
  let user: User = authenticated ?? { name: anonymousUser, groups: [unauthenticatedGroup] };
  if (wantsImpersonation(headers)) {
    const as = impersonate(user, headers, setup.authorizer);
    if (as instanceof StatusError) throw as;
    user = as;
    ctx.audit?.impersonated(as);
  }
  ctx.user = user;
  return user;
}

/** the authorizer chain's verdict on what the identified user asks; a denial is a 403 */
export function authorizeIdentified(ctx: RequestContext, user: User, setup: RequestAuthorization): void {
  ctx.authorizer = setup.authorizer;
  const attrs = attributesOf(user, ctx.info, ctx.query);
  const verdict = setup.authorizer.authorize(attrs);
  ctx.audit?.authorized(verdict.decision === 'allow' ? 'allow' : 'forbid', verdict.reason ?? '');
  if (verdict.decision !== 'allow') throw forbiddenError(attrs, verdict.reason);
  if (setup.rbac && attrs.isResourceRequest && ['create', 'update', 'patch'].includes(attrs.verb) && !attrs.subresource) {
    const check = rbacWriteCheck(user, attrs.apiGroup, attrs.resource, attrs.namespace, setup.authorizer, setup.rbac);
    if (check) ctx.admit = check;
  }
}
