// Service account tokens for projected volumes, as the kubelet's token manager keeps them: one
// TokenRequest per (service account, audiences, lifetime, pod), reused until 80 % of its lifetime
// has passed (or 24 h, whichever is first), then asked for again; each pod sync rewrites the
// volume, so a rotated token reaches the file within a resync. When the API server cannot be
// reached, a token that has not expired yet is kept.

export interface TokenAsk {
  namespace: string;
  serviceAccount: string;
  /** empty: the API server's own audiences */
  audiences: string[];
  expirationSeconds: number;
  pod: { name: string; uid: string };
}

export interface IssuedToken { token: string; expirationTimestamp: string }

/** asks the API server (serviceaccounts/<name>/token) */
export type TokenFetcher = (ask: TokenAsk) => Promise<IssuedToken>;

const maxTtlMs = 24 * 3600_000;
const maxJitterMs = 10_000;

interface Cached { issued: IssuedToken; expiresAt: number; lifetimeMs: number }

export interface TokenManager {
  token(ask: TokenAsk): Promise<string>;
  /** tokens held (expired ones, such as a deleted pod's, are dropped on each fetch) */
  size(): number;
}

export function createTokenManager(fetch: TokenFetcher, opts: { now?: () => number; random?: () => number } = {}): TokenManager {
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const cache = new Map<string, Cached>();
  const keyOf = (a: TokenAsk) => JSON.stringify([a.namespace, a.serviceAccount, a.audiences, a.expirationSeconds, a.pod.uid]);
  const needsRefresh = (c: Cached) => {
    const jitter = random() * maxJitterMs;
    const issuedAt = c.expiresAt - c.lifetimeMs;
    const t = now();
    return t > issuedAt + maxTtlMs - jitter || t > c.expiresAt - c.lifetimeMs * 0.2 - jitter;
  };
  return {
    async token(ask) {
      const key = keyOf(ask);
      const cached = cache.get(key);
      if (cached && !needsRefresh(cached)) return cached.issued.token;
      for (const [k, c] of cache) if (c.expiresAt <= now()) cache.delete(k);
      try {
        const issued = await fetch(ask);
        const expiresAt = Date.parse(issued.expirationTimestamp);
        cache.set(key, { issued, expiresAt, lifetimeMs: ask.expirationSeconds * 1000 });
        return issued.token;
      } catch (err) {
        if (cached && now() < cached.expiresAt) return cached.issued.token;
        throw err;
      }
    },
    size: () => cache.size,
  };
}
