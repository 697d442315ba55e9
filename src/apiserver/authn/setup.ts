// Authentication as kube-apiserver's flags configure it: client certificates, then the bearer
// token chain (static file, bootstrap tokens, service account tokens), cached briefly; the
// service account signer for TokenRequest; the issuer discovery documents.

import { readFile } from 'node:fs/promises';
import { StatusError } from '../../api/status.ts';
import type { Registry } from '../../registry/registry.ts';
import type { Catalog } from '../../schema/types.ts';
import type { TokenService } from '../../registry/subresources/token-service.ts';
import { bootstrapTokenAuthenticator } from './bootstrap-token.ts';
import { loadServiceAccountKeys } from './service-account-keys.ts';
import { createTokenIssuer, serviceAccountTokenAuthenticator, type ObjectGetter } from './service-account-token.ts';
import { parseTokenFile, staticTokenAuthenticator } from './static-token.ts';
import { cachedTokenAuthenticator, unionTokenAuthenticator, type TokenAuthenticator } from './token.ts';
import { createOidcDiscovery, type OidcDiscovery } from './oidc-discovery.ts';

export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface AuthenticationFlags {
  /** --token-auth-file */
  tokenAuthFile?: string;
  /** --service-account-key-file (each file) */
  serviceAccountKeyFiles?: string[];
  /** --service-account-signing-key-file */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-issuer (the first issues, all are accepted) */
  serviceAccountIssuers?: string[];
  /** --service-account-jwks-uri */
  serviceAccountJwksUri?: string;
  /** --api-audiences (default: the first issuer) */
  apiAudiences?: string[];
  /** --service-account-max-token-expiration in seconds (0: none) */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true) */
  serviceAccountExtendTokenExpiration?: boolean;
  /** --enable-bootstrap-token-auth (kube-apiserver: off; orch: on, agents join with one) */
  enableBootstrapTokenAuth?: boolean;
  /** how long a token's answer is remembered (kube-apiserver: 10 s) */
  tokenCacheTtlMs?: number;
}

export interface Authentication {
  tokens: TokenAuthenticator;
  serviceAccountTokens: TokenService;
  oidc?: OidcDiscovery;
  apiAudiences: string[];
}

function objectGetter(registry: Registry, catalog: Catalog): ObjectGetter {
  return async (resource, namespace, name) => {
    try {
      // the watch cache, as Kubernetes' informer-backed getter reads
      return await registry.get(catalog.lookup('', 'v1', resource)!, namespace, name, undefined, true);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  };
}

export async function setupAuthentication(flags: AuthenticationFlags, deps: { registry: Registry; catalog: Catalog; certDir: string; now?: () => Date }): Promise<Authentication> {
  const issuers = flags.serviceAccountIssuers?.length ? flags.serviceAccountIssuers : [DEFAULT_ISSUER];
  const apiAudiences = flags.apiAudiences?.length ? flags.apiAudiences : [issuers[0]!];
  const keys = await loadServiceAccountKeys({ dir: deps.certDir, signingKeyFile: flags.serviceAccountSigningKeyFile, keyFiles: flags.serviceAccountKeyFiles });
  const get = objectGetter(deps.registry, deps.catalog);
  const chain: TokenAuthenticator[] = [];
  if (flags.tokenAuthFile) chain.push(staticTokenAuthenticator(parseTokenFile(await readFile(flags.tokenAuthFile, 'utf8'), flags.tokenAuthFile)));
  if (flags.enableBootstrapTokenAuth ?? true) chain.push(bootstrapTokenAuthenticator(name => get('secrets', 'kube-system', name), deps.now));
  chain.push(serviceAccountTokenAuthenticator({ keys, issuers, apiAudiences, get, now: deps.now }));
  const tokens = cachedTokenAuthenticator(unionTokenAuthenticator(chain), { successTtlMs: flags.tokenCacheTtlMs ?? 10_000, now: deps.now && (() => deps.now!().getTime()) });
  return {
    tokens,
    apiAudiences,
    serviceAccountTokens: {
      issuer: createTokenIssuer(keys, issuers[0]!),
      apiAudiences,
      extendExpiration: flags.serviceAccountExtendTokenExpiration ?? true,
      maxExpirationSeconds: flags.serviceAccountMaxTokenExpirationSeconds ?? 0,
    },
    oidc: createOidcDiscovery(keys, issuers[0]!, flags.serviceAccountJwksUri),
  };
}
