// Bearer tokens: the second step of authentication, after client certificates. Several token
// authenticators are tried in order (static file, bootstrap secrets, service account JWTs); the
// first that recognises a token names the user. A token none recognises is a 401, never a
// fall-through to anonymous: a client that sent credentials wants to know they are wrong.

import { createHash } from 'node:crypto';
import type { User } from '../context.ts';
import { AUTHENTICATED_GROUP } from './client-cert.ts';

/** what a token authenticator answers: the user, and the audiences of the token it accepted */
export interface TokenResult {
  user: User;
  /** the audiences the token is valid for among those asked (absent: the authenticator has none) */
  audiences?: string[];
  /** the token is not valid after this (ms since the epoch): the cache keeps no result past it */
  expiresAt?: number;
}

export interface TokenAuthenticator {
  /**
   * the user `token` names, undefined when this authenticator does not recognise it; throws an
   * Error whose message says why a token it does recognise is not valid
   */
  authenticate(token: string, audiences: readonly string[]): Promise<TokenResult | undefined>;
}

/** why a token failed, gathered from every authenticator that had something to say */
export class TokenRejected extends Error {}

/** tries each authenticator in order; the first answer wins, every user is in system:authenticated */
export function unionTokenAuthenticator(list: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticate(token, audiences) {
      const errors: string[] = [];
      for (const a of list) {
        try {
          const r = await a.authenticate(token, audiences);
          if (r) {
            const groups = r.user.groups.includes(AUTHENTICATED_GROUP) ? r.user.groups : [...r.user.groups, AUTHENTICATED_GROUP];
            return { ...r, user: { ...r.user, groups } };
          }
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
      if (errors.length) throw new TokenRejected(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      return undefined;
    },
  };
}

export interface CacheOptions {
  /** how long a success is remembered (kube-apiserver: 10 s) */
  successTtlMs?: number;
  /** how long a failure is remembered (kube-apiserver: not at all) */
  failureTtlMs?: number;
  now?: () => number;
  /** entries kept at most; the oldest go first */
  max?: number;
}

interface Entry { until: number; result?: TokenResult; error?: string }

/**
 * Remembers answers briefly, keyed by a hash of the token and the audiences asked: verifying a JWT
 * and reading its bound pod on every request of a busy client would cost more than the request.
 * As in Kubernetes, a token whose pod was deleted thus stops working within the success TTL.
 */
export function cachedTokenAuthenticator(inner: TokenAuthenticator, opts: CacheOptions = {}): TokenAuthenticator {
  const successTtl = opts.successTtlMs ?? 10_000;
  const failureTtl = opts.failureTtlMs ?? 0;
  const now = opts.now ?? Date.now;
  const max = opts.max ?? 10_000;
  const cache = new Map<string, Entry>();
  const remember = (key: string, e: Entry) => {
    if (e.until <= now()) return;
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(key, e);
  };
  return {
    async authenticate(token, audiences) {
      const key = createHash('sha256').update(token).update('\0').update(audiences.join('\0')).digest('base64');
      const hit = cache.get(key);
      if (hit && hit.until > now()) {
        if (hit.error !== undefined) throw new TokenRejected(hit.error);
        return hit.result;
      }
      cache.delete(key);
      try {
        const result = await inner.authenticate(token, audiences);
        if (result) remember(key, { until: Math.min(now() + successTtl, result.expiresAt ?? Infinity), result });
        else if (failureTtl) remember(key, { until: now() + failureTtl });
        return result;
      } catch (err) {
        if (failureTtl) remember(key, { until: now() + failureTtl, error: (err as Error).message });
        throw err;
      }
    },
  };
}

/**
 * The token of an `Authorization: Bearer <token>` header; undefined without one. A header that
 * says Bearer but carries no token is no credential at all, as in Kubernetes.
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(value);
  return m ? m[1] : undefined;
}
