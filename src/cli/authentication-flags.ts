// kube-apiserver's authentication flags, for `orch server` and `orch up`. Lists that kube-apiserver
// takes as repeated flags (--service-account-issuer, --service-account-key-file) are also
// accepted comma-separated here.

import { parseDuration } from '../api/duration.ts';
import { parseGoBool } from '../api/go-bool.ts';
import type { AuthenticationFlags } from '../apiserver/authn/setup.ts';
import { flag, type Flag } from './command.ts';

export const authenticationFlags: Record<string, Flag> = {
  'token-auth-file': { type: 'string', default: '', description: 'static bearer tokens: a CSV file of token,user,uid,"group1,group2"' },
  'enable-bootstrap-token-auth': { type: 'string', default: 'true', description: 'accept bootstrap tokens (bootstrap.kubernetes.io/token secrets in kube-system)' },
  'service-account-issuer': { type: 'string', default: 'https://kubernetes.default.svc.cluster.local', description: 'the iss of service account tokens; several comma-separated: the first issues, all are accepted' },
  'service-account-key-file': { type: 'string', default: '', description: 'PEM files (comma-separated) of further public keys that verify service account tokens' },
  'service-account-signing-key-file': { type: 'string', default: '', description: 'private key that signs service account tokens (default: <cert-dir>/sa.key, made on first start)' },
  'service-account-jwks-uri': { type: 'string', default: '', description: 'jwks_uri of /.well-known/openid-configuration (default https://<this server>/openid/v1/jwks)' },
  'api-audiences': { type: 'string', default: '', description: 'audiences of the API, comma-separated (default: the service account issuer)' },
  'service-account-max-token-expiration': { type: 'string', default: '0s', description: 'the longest lifetime a TokenRequest is given (0: no limit)' },
  'service-account-extend-token-expiration': { type: 'string', default: 'true', description: 'projected tokens asked for 3607 s live a year, warning after their requested lifetime' },
};

function list(v: unknown): string[] {
  return String(v ?? '').split(',').map(x => x.trim()).filter(Boolean);
}

function bool(name: string, v: unknown): boolean {
  const b = parseGoBool(String(v));
  if (b === undefined) throw new Error(`invalid boolean value "${String(v)}" for flag --${name}`);
  return b;
}

export function authenticationOptions(values: Record<string, string | boolean | undefined>): AuthenticationFlags {
  return {
    tokenAuthFile: String(values['token-auth-file'] ?? '') || undefined,
    enableBootstrapTokenAuth: flag(() => bool('enable-bootstrap-token-auth', values['enable-bootstrap-token-auth'] ?? 'true')),
    serviceAccountIssuers: list(values['service-account-issuer']),
    serviceAccountKeyFiles: list(values['service-account-key-file']),
    serviceAccountSigningKeyFile: String(values['service-account-signing-key-file'] ?? '') || undefined,
    serviceAccountJwksUri: String(values['service-account-jwks-uri'] ?? '') || undefined,
    apiAudiences: list(values['api-audiences']),
    serviceAccountMaxTokenExpirationSeconds: Math.floor(flag(() => parseDuration(String(values['service-account-max-token-expiration'] ?? '0s'))) / 1000),
    serviceAccountExtendTokenExpiration: flag(() => bool('service-account-extend-token-expiration', values['service-account-extend-token-expiration'] ?? 'true')),
  };
}
