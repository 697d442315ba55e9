// Service account tokens: JWTs with the claims kube-apiserver puts in a bound token, signed with
// the service account key, and the authenticator that accepts them. A token names the objects it
// is bound to (service account, pod or secret, node) by name and uid; it is valid only while they
// still exist with those uids, so deleting the pod ends its tokens.

import { randomUUID, sign } from 'node:crypto';
import type { JWTPayload } from 'jose';

// jose loads on the first token checked: a cluster whose pods do not call the API server (orch up
// idle) does not hold it. Tokens are signed with node:crypto alone (see signJws).
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));
import type { KubeObject } from '../../api/object.ts';
import type { IssueTokenRequest, TokenIssuer } from '../../registry/subresources/token-service.ts';
import type { ServiceAccountKeys } from './service-account-keys.ts';
import type { TokenAuthenticator } from './token.ts';

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const prefix = 'system:serviceaccount:';
/** a bound object being deleted keeps its tokens valid this long (Kubernetes: 60 s) */
const deletionGraceMs = 60_000;

interface Ref { name: string; uid: string }
interface KubernetesClaim {
  namespace: string;
  serviceaccount?: Ref;
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
  warnafter?: number;
}
type Claims = JWTPayload & { 'kubernetes.io'?: KubernetesClaim };

export type BoundResource = 'serviceaccounts' | 'pods' | 'secrets' | 'nodes';
/** reads a bound object, undefined when it does not exist */
export type ObjectGetter = (resource: BoundResource, namespace: string | undefined, name: string) => Promise<KubeObject | undefined>;

/** Go's %q of a string list, as Kubernetes' messages print one */
function quoted(list: readonly string[]): string {
  return `[${list.map(s => JSON.stringify(s)).join(' ')}]`;
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${prefix}${namespace}:${name}`;
}

/**
 * A JWS in compact form, as jose's SignJWT writes it (protected header {alg, kid}, the payload's
 * JSON, base64url without padding), for the algorithms of service account keys: RS256 is
 * RSASSA-PKCS1-v1_5, ES256/384/512 ECDSA with the signature as r || s (IEEE P1363), not DER.
 */
function signJws(key: ServiceAccountKeys['signing'], payload: object): string {
  const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
  const input = `${b64url(JSON.stringify({ alg: key.alg, kid: key.kid }))}.${b64url(JSON.stringify(payload))}`;
  const hash = key.alg === 'ES384' ? 'sha384' : key.alg === 'ES512' ? 'sha512' : 'sha256';
  const signature = sign(hash, Buffer.from(input), key.alg.startsWith('ES') ? { key: key.key, dsaEncoding: 'ieee-p1363' } : key.key);
  return `${input}.${b64url(signature)}`;
}

export function createTokenIssuer(keys: ServiceAccountKeys, issuer: string): TokenIssuer {
  return {
    async issue(req: IssueTokenRequest) {
      const iat = Math.floor(req.now.getTime() / 1000);
      const exp = iat + req.expirationSeconds;
      // keys in Kubernetes' (alphabetical) order, so tokens read the same as kube-apiserver's
      const claim: KubernetesClaim = { namespace: req.namespace };
      if (req.node) claim.node = req.node;
      if (req.pod) claim.pod = req.pod;
      if (req.secret) claim.secret = req.secret;
      claim.serviceaccount = req.serviceAccount;
      if (req.warnAfterSeconds !== undefined) claim.warnafter = iat + req.warnAfterSeconds;
      const payload = {
        aud: [...req.audiences], exp, iat, iss: issuer, jti: randomUUID(), 'kubernetes.io': claim, nbf: iat,
        sub: serviceAccountUsername(req.namespace, req.serviceAccount.name),
      };
      return { token: signJws(keys.signing, payload), expiresAt: new Date(exp * 1000) };
    },
  };
}

export interface ValidatorOptions {
  keys: ServiceAccountKeys;
  /** issuers accepted (the first is the one tokens are issued with) */
  issuers: readonly string[];
  /** --api-audiences: what a token must be for when the caller names no audience */
  apiAudiences: readonly string[];
  get: ObjectGetter;
  now?: () => Date;
}

/** the object a claim names, or an error saying the token no longer holds */
async function checkBound(opts: ValidatorOptions, resource: BoundResource, namespace: string | undefined, ref: Ref, what: string): Promise<void> {
  const obj = await opts.get(resource, namespace, ref.name);
  if (!obj) throw new Error('service account token has been invalidated');
  if (ref.uid && obj.metadata.uid !== ref.uid) throw new Error(`${what} UID (${obj.metadata.uid}) does not match claim (${ref.uid})`);
  const deleting = obj.metadata.deletionTimestamp;
  if (deleting && Date.parse(deleting) < (opts.now?.() ?? new Date()).getTime() - deletionGraceMs) throw new Error('service account token has been invalidated');
}

export function serviceAccountTokenAuthenticator(opts: ValidatorOptions): TokenAuthenticator {
  return {
    async authenticate(token, audiences) {
      const { decodeJwt, errors: joseErrors, jwtVerify } = await jose();
      let unverified: Claims;
      try {
        unverified = decodeJwt(token) as Claims;
      } catch {
        return undefined; // not a JWT: another authenticator's
      }
      if (typeof unverified.iss !== 'string' || !opts.issuers.includes(unverified.iss)) return undefined;
      const now = opts.now?.() ?? new Date();
      let claims: Claims;
      try {
        const { payload } = await jwtVerify(token, async header => {
          const k = opts.keys.verifying.find(v => v.kid === header.kid && v.alg === header.alg) ?? opts.keys.verifying.find(v => !header.kid && v.alg === header.alg);
          if (!k) throw new Error('invalid signature');
          return k.key;
        }, { issuer: [...opts.issuers], currentDate: now, clockTolerance: 60, algorithms: ['RS256', 'ES256', 'ES384', 'ES512'] });
        claims = payload as Claims;
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new Error('service account token has expired');
        if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'nbf') throw new Error('service account token is not valid yet');
        if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iat') throw new Error('service account token is issued in the future');
        throw new Error('invalid bearer token, square/go-jose: error in cryptographic primitive');
      }
      const tokenAudiences = typeof claims.aud === 'string' ? [claims.aud] : claims.aud ?? [];
      const wanted = audiences.length ? audiences : opts.apiAudiences;
      const matched = tokenAudiences.filter(a => wanted.includes(a));
      if (!matched.length) throw new Error(`token audiences ${quoted(tokenAudiences)} is invalid for the target audiences ${quoted(wanted)}`);
      const k = claims['kubernetes.io'];
      if (!k?.serviceaccount?.name || !k.namespace) throw new Error('service account token claims could not be retrieved');
      if (claims.sub !== serviceAccountUsername(k.namespace, k.serviceaccount.name)) throw new Error('service account token claims could not be retrieved');
      await checkBound(opts, 'serviceaccounts', k.namespace, k.serviceaccount, 'service account');
      if (k.secret) await checkBound(opts, 'secrets', k.namespace, k.secret, 'secret');
      if (k.pod) await checkBound(opts, 'pods', k.namespace, k.pod, 'pod');
      if (k.node && !k.pod) await checkBound(opts, 'nodes', undefined, k.node, 'node');
      const extra: Record<string, string[]> = {};
      if (k.pod) { extra['authentication.kubernetes.io/pod-name'] = [k.pod.name]; extra['authentication.kubernetes.io/pod-uid'] = [k.pod.uid]; }
      if (k.node) { extra['authentication.kubernetes.io/node-name'] = [k.node.name]; extra['authentication.kubernetes.io/node-uid'] = [k.node.uid]; }
      if (claims.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.jti}`];
      return {
        user: {
          name: serviceAccountUsername(k.namespace, k.serviceaccount.name),
          uid: k.serviceaccount.uid,
          groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${k.namespace}`],
          extra,
        },
        audiences: matched,
        expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined,
      };
    },
  };
}
