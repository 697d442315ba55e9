// Service account issuer discovery: `/.well-known/openid-configuration` and the key set it
// points at, so that anything outside the cluster (a cloud's workload identity, Vault) can verify
// service account tokens as OpenID Connect ID tokens. Served only when the issuer is an https URL,
// as kube-apiserver does; the documents never change while the server runs.

import type { ServiceAccountKeys } from './service-account-keys.ts';

export const OIDC_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
const cacheControl = 'public, max-age=3600';

export interface DiscoveryDocument { contentType: string; body: string }
export interface OidcDiscovery {
  /** the document a path names, undefined for any other path */
  serve(path: string, serverAddress: string): { headers: Record<string, string>; body: string } | undefined;
}

export function jwks(keys: ServiceAccountKeys): { keys: Array<Record<string, string>> } {
  return {
    keys: keys.verifying.map(k => {
      const jwk = k.key.export({ format: 'jwk' }) as Record<string, string>;
      return { use: 'sig', kty: jwk.kty!, kid: k.kid, alg: k.alg, ...(jwk.kty === 'RSA' ? { n: jwk.n!, e: jwk.e! } : { crv: jwk.crv!, x: jwk.x!, y: jwk.y! }) };
    }),
  };
}

/** --service-account-jwks-uri, or https://<this server's address>/openid/v1/jwks */
export function createOidcDiscovery(keys: ServiceAccountKeys, issuer: string, jwksUri?: string): OidcDiscovery | undefined {
  if (!issuer.startsWith('https://')) return undefined;
  const algs = [...new Set(keys.verifying.map(k => k.alg))];
  const keySet = JSON.stringify(jwks(keys));
  return {
    serve(path, serverAddress) {
      if (path === OIDC_CONFIG_PATH) {
        const body = JSON.stringify({
          issuer,
          jwks_uri: jwksUri ?? `https://${serverAddress}${JWKS_PATH}`,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: algs,
        });
        return { headers: { 'content-type': 'application/json', 'cache-control': cacheControl }, body };
      }
      if (path === JWKS_PATH) return { headers: { 'content-type': 'application/jwk-set+json', 'cache-control': cacheControl }, body: keySet };
      return undefined;
    },
  };
}
