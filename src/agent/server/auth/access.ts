// The agent endpoint's gate, in the kubelet's order and words: authenticate (401 "Unauthorized"
// when nobody acceptable is asking), then authorize each subresource the path maps to until one is
// allowed (403 "Forbidden (user=…, verb=…, resource=nodes, subresource(s)=[…])"), an authorizer
// failure being a 500 "Authorization error (…)". The settings are KubeletConfiguration's
// authentication/authorization blocks.

import type { IncomingMessage } from 'node:http';
import type { Client } from '../../../client/rest.ts';
import { parseDuration } from '../../../api/duration.ts';
import { requestAuthenticator, type AgentUser, type Authentication } from './authenticator.ts';
import { alwaysAllow, webhookAuthorizer, type NodeAuthorizer } from './authorizer.ts';
import { nodeRequestAttributes } from './request-attributes.ts';

export type AccessAnswer = { ok: true; user: AgentUser } | { ok: false; status: 401 | 403 | 500; body: string; why?: string };

export type AccessGate = (req: IncomingMessage) => Promise<AccessAnswer>;

export interface AuthSettings {
  authentication?: { webhook?: { enabled?: boolean; cacheTTL?: string }; anonymous?: { enabled?: boolean } };
  authorization?: { mode?: string; webhook?: { cacheAuthorizedTTL?: string; cacheUnauthorizedTTL?: string } };
}

export function accessGate(nodeName: string, authenticate: (req: IncomingMessage) => Promise<Authentication>, authorize: NodeAuthorizer): AccessGate {
  return async req => {
    const authn = await authenticate(req);
    if (!authn.user) return { ok: false, status: 401, body: 'Unauthorized', why: authn.error };
    const user = authn.user;
    const path = new URL(req.url ?? '/', 'https://agent').pathname;
    const attrs = nodeRequestAttributes(nodeName, req.method, path);
    for (const subresource of attrs.subresources) {
      let decision;
      try {
        decision = await authorize(user, { verb: attrs.verb, resource: attrs.resource, subresource, name: attrs.name });
      } catch (err) {
        return { ok: false, status: 500, body: `Authorization error (user=${user.name}, verb=${attrs.verb}, resource=${attrs.resource}, subresource=${subresource})`, why: String((err as Error).message ?? err) };
      }
      if (decision === 'allow') return { ok: true, user };
    }
    return { ok: false, status: 403, body: `Forbidden (user=${user.name}, verb=${attrs.verb}, resource=${attrs.resource}, subresource(s)=[${attrs.subresources.join(' ')}])\n` };
  };
}

/**
 * the gate the configuration asks for; webhook authentication or authorization without a client to
 * the API server refuses the start, in the kubelet's words
 */
export function configuredAccessGate(nodeName: string, s: AuthSettings, client: Client | undefined): AccessGate {
  const webhookAuthn = s.authentication?.webhook?.enabled ?? false;
  if (webhookAuthn && !client) throw new Error('no client provided, cannot use webhook authentication');
  const mode = s.authorization?.mode ?? 'AlwaysAllow';
  if (mode === 'Webhook' && !client) throw new Error('no client provided, cannot use webhook authorization');
  if (mode !== 'Webhook' && mode !== 'AlwaysAllow') throw new Error(`unknown authorization mode ${mode} specified`);
  const authenticate = requestAuthenticator({
    anonymous: s.authentication?.anonymous?.enabled ?? false,
    tokenReviews: webhookAuthn ? { client: client!, cacheTtlMs: parseDuration(s.authentication?.webhook?.cacheTTL ?? '2m') } : undefined,
  });
  const authorize = mode === 'Webhook' ? webhookAuthorizer({
    client: client!,
    cacheAuthorizedTtlMs: parseDuration(s.authorization?.webhook?.cacheAuthorizedTTL ?? '5m'),
    cacheUnauthorizedTtlMs: parseDuration(s.authorization?.webhook?.cacheUnauthorizedTTL ?? '30s'),
  }) : alwaysAllow;
  return accessGate(nodeName, authenticate, authorize);
}
