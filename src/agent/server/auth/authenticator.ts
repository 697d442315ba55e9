// Who is asking the agent's endpoint, as the kubelet's delegating authenticator decides it: a
// client certificate verified against the client CA (CN is the user, O the groups), else a bearer
// token the API server vouches for through a TokenReview (answers cached for
// authentication.webhook.cacheTTL), else, when authentication.anonymous.enabled, system:anonymous.
// Credentials that were presented and failed are an error (401) even with anonymous on, so a bad
// certificate or token is never quietly downgraded to anonymous.

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Client } from '../../../client/rest.ts';
import { TtlCache } from './ttl-cache.ts';

export interface AgentUser { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> }

export type Authentication = { user: AgentUser } | { user?: undefined; error?: string };

export interface AuthenticatorOptions {
  /** anonymous requests are let through to authorization as system:anonymous */
  anonymous: boolean;
  /** TokenReview through this client; absent: bearer tokens are not looked at */
  tokenReviews?: { client: Client; cacheTtlMs: number };
  now?: () => number;
}

const clientAuthOid = '1.3.6.1.5.5.7.3.2';
const anyExtKeyUsageOid = '2.5.29.37.0';

/** the certificate's identity, undefined when none was presented; throws when it does not verify */
export function certificateUser(socket: TLSSocket): AgentUser | undefined {
  const cert = socket.getPeerCertificate?.();
  if (!cert || Object.keys(cert).length === 0) return undefined;
  if (!socket.authorized) throw new Error(`verifying certificate: ${String(socket.authorizationError ?? 'unknown authority')}`);
  const eku = cert.ext_key_usage;
  if (eku && eku.length && !eku.includes(clientAuthOid) && !eku.includes(anyExtKeyUsageOid)) throw new Error('x509: certificate specifies an incompatible key usage');
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  return { name: list(cert.subject?.CN)[0] ?? '', groups: list(cert.subject?.O) };
}

/** the token of an `Authorization: Bearer <token>` header, as Go's bearer token reader takes it */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(header ?? '');
  return m && m[1]!.toLowerCase() === 'bearer' ? m[2] : undefined;
}

type Review = { status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }; error?: string } };

export function requestAuthenticator(opts: AuthenticatorOptions): (req: IncomingMessage) => Promise<Authentication> {
  const cache = new TtlCache<AgentUser | null>(opts.now);
  async function tokenUser(token: string): Promise<AgentUser> {
    const review = opts.tokenReviews!;
    let user = cache.get(token);
    if (user === undefined) {
      const answer = await review.client.create<Review>('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
      const s = answer.status;
      user = s?.authenticated && s.user ? { name: s.user.username ?? '', uid: s.user.uid, groups: s.user.groups ?? [], extra: s.user.extra } : null;
      cache.set(token, user, review.cacheTtlMs);
    }
    if (!user) throw new Error('invalid bearer token');
    return user;
  }

  return async req => {
    const errors: string[] = [];
    let user: AgentUser | undefined;
    try { user = certificateUser(req.socket as TLSSocket); } catch (err) { errors.push((err as Error).message); }
    const token = bearerToken(req.headers.authorization);
    if (!user && token && opts.tokenReviews) {
      try { user = await tokenUser(token); } catch (err) { errors.push((err as Error).message); }
    }
    if (user) {
      // every authenticated user is in system:authenticated, as the API server's group adder has it
      const groups = user.groups.includes('system:authenticated') || user.groups.includes('system:unauthenticated') ? user.groups : [...user.groups, 'system:authenticated'];
      return { user: { ...user, groups } };
    }
    if (errors.length) return { error: errors.join(', ') };
    if (opts.anonymous) return { user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } };
    return {};
  };
}
