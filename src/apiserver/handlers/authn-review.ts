// POST of a TokenReview or SelfSubjectReview: the body is read and checked like any object's,
// answered by the authenticator chain (authn/reviews.ts) with 201, and never stored.

import type { ResourceInfo } from '../../schema/types.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { readObject } from '../request-object.ts';
import { sendObject } from '../respond.ts';
import { checkTypeMeta } from './type-meta.ts';
import { fieldValidation } from './write-options.ts';
import { reviewSelf, reviewToken } from '../authn/reviews.ts';

type Review = (ctx: RequestContext, deps: HandlerDeps) => Promise<void>;

/** the handler for `info` when it is one of the authentication reviews */
export function authnReviewHandler(info: ResourceInfo): Review | undefined {
  if (info.group !== 'authentication.k8s.io') return undefined;
  if (info.resource !== 'tokenreviews' && info.resource !== 'selfsubjectreviews') return undefined;
  return async (ctx, deps) => {
    const body = await readObject(ctx, { definition: info.definition, kind: info.kind, version: info.version, fieldValidation: fieldValidation(ctx, 'CreateOptions') },
      o => checkTypeMeta(ctx, info, o));
    const apiVersion = `${info.group}/${info.version}`;
    const out = info.resource === 'tokenreviews'
      ? await reviewToken(body, deps.tokenAuthenticator, apiVersion)
      : reviewSelf(body, ctx.user!, apiVersion);
    sendObject(ctx, 201, out);
  };
}
