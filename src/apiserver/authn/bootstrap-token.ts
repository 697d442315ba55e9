// Bootstrap tokens: `<id>.<secret>` backed by a `bootstrap.kubernetes.io/token` Secret named
// `bootstrap-token-<id>` in kube-system (what `kubeadm token create` makes). They let a new node
// join before it has a certificate. The user is `system:bootstrap:<id>` in `system:bootstrappers`
// and the extra groups the secret names.

import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../../api/object.ts';
import type { TokenAuthenticator } from './token.ts';

export const BOOTSTRAP_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const extraGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** reads a Secret of kube-system, undefined when there is none */
export type SecretGetter = (name: string) => Promise<KubeObject | undefined>;

function field(secret: KubeObject, key: string): string | undefined {
  const data = (secret as { data?: Record<string, string> }).data;
  const v = data?.[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A token that does not have the bootstrap shape is not this authenticator's; one that does but
 * has no valid secret behind it is not recognised either (the chain then answers 401), as in
 * Kubernetes, which only logs the reason.
 */
export function bootstrapTokenAuthenticator(getSecret: SecretGetter, now: () => Date = () => new Date()): TokenAuthenticator {
  return {
    async authenticate(token) {
      const m = tokenPattern.exec(token);
      if (!m) return undefined;
      const [, id, secretPart] = m as unknown as [string, string, string];
      const secret = await getSecret(`bootstrap-token-${id}`);
      if (!secret || secret.metadata.deletionTimestamp) return undefined;
      if ((secret as { type?: string }).type !== BOOTSTRAP_SECRET_TYPE) return undefined;
      const storedSecret = field(secret, 'token-secret');
      if (storedSecret === undefined || !sameString(storedSecret, secretPart)) return undefined;
      if (field(secret, 'token-id') !== id) return undefined;
      const expiration = field(secret, 'expiration');
      let expiresAt: number | undefined;
      if (expiration !== undefined) {
        expiresAt = Date.parse(expiration);
        if (Number.isNaN(expiresAt) || expiresAt <= now().getTime()) return undefined;
      }
      if (field(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
      const extra = (field(secret, 'auth-extra-groups') ?? '').split(',').map(g => g.trim()).filter(Boolean);
      if (extra.some(g => !extraGroupPattern.test(g))) return undefined;
      const groups = [BOOTSTRAPPERS_GROUP, ...extra.filter(g => g !== BOOTSTRAPPERS_GROUP)];
      return { user: { name: `system:bootstrap:${id}`, groups }, expiresAt };
    },
  };
}
