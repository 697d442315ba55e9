// TokenReview and SelfSubjectReview: questions to the authenticator chain, answered and never
// stored (create-only, no name needed). A TokenReview asks who a token names (for webhooks and
// aggregated servers); a SelfSubjectReview tells the caller who the server thinks it is
// (`kubectl auth whoami`).

import { badRequest } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { RequestContext, User } from '../context.ts';
import { registerVirtualKind } from '../virtual-kinds.ts';
import type { TokenAuthenticator } from './token.ts';

interface UserInfo { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }

/** the user as Kubernetes' UserInfo (empty fields left out, as Go's omitempty does) */
export function userInfo(user: User): UserInfo {
  const out: UserInfo = { username: user.name };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = user.extra;
  return out;
}

function echo(body: KubeObject, apiVersion: string, kind: string): KubeObject {
  return { ...body, kind, apiVersion, metadata: { ...(body.metadata ?? {}), creationTimestamp: body.metadata?.creationTimestamp ?? null } } as KubeObject;
}

/** TokenReview: the token's user and audiences, or why it is not valid (then authenticated: false) */
export async function reviewToken(body: KubeObject, authenticator: TokenAuthenticator | undefined, apiVersion: string): Promise<KubeObject> {
  const spec = (body as { spec?: { token?: string; audiences?: string[] } }).spec ?? {};
  if (!spec.token) throw badRequest('token is required for TokenReview in authentication');
  const out = echo(body, apiVersion, 'TokenReview') as KubeObject & { status?: Record<string, unknown> };
  try {
    const r = authenticator ? await authenticator.authenticate(spec.token, spec.audiences ?? []) : undefined;
    if (!r) {
      out.status = { user: {}, error: 'invalid bearer token' };
      return out;
    }
    out.status = { authenticated: true, user: userInfo(r.user) };
    const audiences = r.audiences ?? spec.audiences;
    if (audiences?.length) out.status.audiences = audiences;
  } catch (err) {
    out.status = { user: {}, error: (err as Error).message };
  }
  return out;
}

/** SelfSubjectReview: the requester's own user */
export function reviewSelf(body: KubeObject, user: User, apiVersion: string): KubeObject {
  return { ...echo(body, apiVersion, 'SelfSubjectReview'), status: { userInfo: userInfo(user) } } as KubeObject;
}

/** TokenReview and SelfSubjectReview as virtual create-only kinds */
export function registerAuthenticationReviews(): void {
  const apiVersion = (ctx: RequestContext) => `${ctx.resource!.group}/${ctx.resource!.version}`;
  registerVirtualKind('authentication.k8s.io', 'tokenreviews', (ctx, body, deps) => reviewToken(body, deps.tokenAuthenticator, apiVersion(ctx)));
  registerVirtualKind('authentication.k8s.io', 'selfsubjectreviews', (ctx, body) => reviewSelf(body, ctx.user!, apiVersion(ctx)));
}
