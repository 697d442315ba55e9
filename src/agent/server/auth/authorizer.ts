// May this user do this to the node? authorization.mode AlwaysAllow says yes to everyone;
// Webhook asks the API server with a SubjectAccessReview carrying the user and the node's
// resource attributes, and keeps allowed answers for webhook.cacheAuthorizedTTL and the others for
// cacheUnauthorizedTTL, as the kubelet's webhook authorizer does. A review that fails to be made
// is an error (the caller answers 500), never a silent allow or deny.

import type { Client } from '../../../client/rest.ts';
import type { AgentUser } from './authenticator.ts';
import { TtlCache } from './ttl-cache.ts';

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface NodeResourceAttributes { verb: string; resource: string; subresource: string; name: string }

export type NodeAuthorizer = (user: AgentUser, a: NodeResourceAttributes) => Promise<Decision>;

export const alwaysAllow: NodeAuthorizer = async () => 'allow';

type Review = { status?: { allowed?: boolean; denied?: boolean } };

export function webhookAuthorizer(opts: { client: Client; cacheAuthorizedTtlMs: number; cacheUnauthorizedTtlMs: number; now?: () => number }): NodeAuthorizer {
  const cache = new TtlCache<Decision>(opts.now);
  return async (user, a) => {
    const spec = {
      resourceAttributes: { namespace: '', verb: a.verb, group: '', version: 'v1', resource: a.resource, subresource: a.subresource, name: a.name },
      user: user.name,
      ...(user.groups.length ? { groups: user.groups } : {}),
      ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
      ...(user.uid ? { uid: user.uid } : {}),
    };
    const key = JSON.stringify(spec);
    const cached = cache.get(key);
    if (cached) return cached;
    const review = await opts.client.create<Review>('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    const decision: Decision = review.status?.allowed ? 'allow' : review.status?.denied ? 'deny' : 'no-opinion';
    cache.set(key, decision, decision === 'allow' ? opts.cacheAuthorizedTtlMs : opts.cacheUnauthorizedTtlMs);
    return decision;
  };
}
