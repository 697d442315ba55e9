// What the TokenRequest subresource needs from the API server: a signer and its settings. The
// signing is the API server's (`apiserver/authn/service-account-token.ts`); these types are here,
// where they are used, so that the registry never imports the API server.

interface Ref { name: string; uid: string }

/** what the signer is asked for */
export interface IssueTokenRequest {
  namespace: string;
  serviceAccount: Ref;
  audiences: readonly string[];
  /** the token's lifetime (exp - iat) */
  expirationSeconds: number;
  /** set: a token whose use past this many seconds is only warned about (the extended projected token) */
  warnAfterSeconds?: number;
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
  now: Date;
}

export interface TokenIssuer {
  issue(req: IssueTokenRequest): Promise<{ token: string; expiresAt: Date }>;
}

/** what the API server gives this subresource: its signer and its audiences */
export interface TokenService {
  issuer: TokenIssuer;
  /** --api-audiences: the audiences of a request that names none */
  apiAudiences: readonly string[];
  /** --service-account-extend-token-expiration (default true) */
  extendExpiration: boolean;
  /** --service-account-max-token-expiration in seconds (0: no limit) */
  maxExpirationSeconds: number;
}
