// Whether a pod may use an image already on the node without pulling it again, as the kubelet
// decides it with KubeletEnsureSecretPulledImages: `imagePullCredentialsVerificationPolicy` says
// which present images need their credentials checked at all (NeverVerify: none;
// NeverVerifyPreloadedImages: those the agent pulled itself; NeverVerifyAllowlistedImages: all but
// those `preloadedImagesVerificationAllowlist` names; AlwaysVerify: all), and the image's pulled
// record says who may use it (anyone on the node, or holders of the same secret or the same
// credentials). Pure: the pull manager reads and writes the records.

import { parseImageRef } from '../../api/image-ref.ts';
import type { ImagePullCredentials, ImagePullSecretRecord, ImagePulledRecord } from './pull-records.ts';

export const verificationPolicies = ['NeverVerify', 'NeverVerifyPreloadedImages', 'NeverVerifyAllowlistedImages', 'AlwaysVerify'] as const;
export type VerificationPolicy = typeof verificationPolicies[number];

/** the repository of an image reference, without tag or digest, normalized ("busybox" → docker.io/library/busybox) */
export function imageName(image: string): string | undefined {
  return parseImageRef(image)?.repository;
}

/** an allowlist pattern: a repository without tag or digest, or a prefix ending in `/*`; the kubelet's refusals */
export function allowlistPattern(pattern: string): { prefix?: string; name?: string } | { error: string } {
  if (pattern !== pattern.trim()) return { error: `leading/trailing spaces are not allowed: ${pattern}` };
  const wildcard = pattern.endsWith('/*');
  const trimmed = wildcard ? pattern.slice(0, -1) : pattern;
  if (!trimmed) return { error: `the supplied pattern is too short: ${pattern}` };
  if (trimmed.includes('*')) return { error: `not a valid wildcard pattern, only patterns ending with '/*' are allowed: ${pattern}` };
  if (wildcard) return trimmed.length === 1 ? { error: 'at least registry hostname is required' } : { prefix: trimmed };
  const ref = parseImageRef(trimmed);
  if (!ref) return { error: 'failed to parse as an image name: invalid reference format' };
  if (trimmed !== ref.repository) return { error: `neither tag nor digest is accepted in an image reference: ${pattern}` };
  return { name: trimmed };
}

/** whether the policy wants a present image's credentials checked */
export function requiresVerification(policy: VerificationPolicy, allowlist: string[]): (image: string, pulledByAgent: boolean) => boolean {
  switch (policy) {
    case 'NeverVerify': return () => false;
    case 'NeverVerifyPreloadedImages': return (_image, pulledByAgent) => pulledByAgent;
    case 'AlwaysVerify': return () => true;
    case 'NeverVerifyAllowlistedImages': {
      const patterns = allowlist.map(allowlistPattern);
      return image => {
        const name = imageName(image);
        if (!name) return true;
        return !patterns.some(p => ('name' in p && p.name === name) || ('prefix' in p && !!p.prefix && name.startsWith(p.prefix)));
      };
    }
  }
}

export interface PullDecision {
  pull: boolean;
  /** credentials the pod proved it holds, to add to the record (a secret renamed or re-keyed) */
  remember?: ImagePullCredentials;
}

/** at most this many secrets per image are added while only checking a pod's access */
const rememberLimit = 100;

/**
 * The decision for a present image whose record (if any) is known: pull again unless the record
 * lets the pod use it. A secret matches by its credentials' hash, or by its namespace, name and
 * uid (the secret rotated since); either way the other half is remembered for next time.
 */
export function mustAttemptPull(image: string, record: ImagePulledRecord | undefined, podSecrets: ImagePullSecretRecord[]): PullDecision {
  if (!record) return { pull: true };
  const name = imageName(image);
  const creds = name === undefined ? undefined : record.credentialMapping[name];
  if (!creds) return { pull: true };
  if (creds.nodePodsAccessible) return { pull: false };
  const known = creds.kubernetesSecrets ?? [];
  if (!known.length && !(creds.kubernetesServiceAccounts ?? []).length) return { pull: true };
  const room = known.length < rememberLimit;
  for (const mine of podSecrets) {
    for (const theirs of known) {
      const sameHash = theirs.credentialHash.length > 0 && mine.credentialHash === theirs.credentialHash;
      const sameSecret = mine.uid === theirs.uid && mine.namespace === theirs.namespace && mine.name === theirs.name;
      if (sameHash) return { pull: false, ...(!sameSecret && room ? { remember: { kubernetesSecrets: [mine] } } : {}) };
      if (sameSecret && room) return { pull: false, remember: { kubernetesSecrets: [mine] } };
    }
  }
  return { pull: true };
}

/** Go's strings.Compare: by code unit, not by locale */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCoordinates = (a: { namespace: string; name: string; uid: string }, b: { namespace: string; name: string; uid: string }) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.uid, b.uid);

/**
 * A record with new credentials for an image name merged in, or the same record when nothing
 * changes: node-wide access replaces any list, secrets are kept once per namespace/name/uid with
 * the newest hash, sorted.
 */
export function mergeCredentials(record: ImagePulledRecord, name: string, added: ImagePullCredentials | undefined, now: string): { record: ImagePulledRecord; changed: boolean } {
  const unchanged = { record, changed: false };
  if (!added || (!added.nodePodsAccessible && !added.kubernetesSecrets?.length && !added.kubernetesServiceAccounts?.length)) return unchanged;
  const had = record.credentialMapping[name];
  const next = (creds: ImagePullCredentials) => ({ record: { ...record, lastUpdatedTime: now, credentialMapping: { ...record.credentialMapping, [name]: creds } }, changed: true });
  if (!had) return next(added);
  if (had.nodePodsAccessible) return unchanged;
  if (added.nodePodsAccessible) return next({ nodePodsAccessible: true });
  if (added.kubernetesSecrets?.length) {
    const key = (s: ImagePullSecretRecord) => `${s.namespace}\0${s.name}\0${s.uid}`;
    const merged = new Map((had.kubernetesSecrets ?? []).map(s => [key(s), s]));
    let changed = false;
    for (const s of added.kubernetesSecrets) {
      if (merged.get(key(s))?.credentialHash !== s.credentialHash) { merged.set(key(s), s); changed = true; }
    }
    return changed ? next({ ...had, kubernetesSecrets: [...merged.values()].sort(byCoordinates) }) : unchanged;
  }
  const sa = had.kubernetesServiceAccounts ?? [];
  const fresh = (added.kubernetesServiceAccounts ?? []).filter(a => !sa.some(b => a.uid === b.uid && a.namespace === b.namespace && a.name === b.name));
  if (!fresh.length) return unchanged;
  return next({ ...had, kubernetesServiceAccounts: [...sa, ...fresh].sort(byCoordinates) });
}

/**
 * The configuration's problems with these fields, in the kubelet's words: a policy it does not
 * know, an allowlist without NeverVerifyAllowlistedImages or with a bad pattern, either field
 * set while the gate is off. Empty values are the default (NeverVerifyPreloadedImages).
 */
export function imagePullConfigProblems(policy: string | undefined, allowlist: string[] | undefined, gateOn: boolean): string[] {
  const list = allowlist ?? [];
  if (!gateOn) {
    return [
      ...(policy ? ['`imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled'] : []),
      ...(list.length ? ['`preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled'] : []),
    ];
  }
  const out: string[] = [];
  const effective = policy || 'NeverVerifyPreloadedImages';
  if (!(verificationPolicies as readonly string[]).includes(effective)) out.push(`option "${effective}" specified for imagePullCredentialsVerificationPolicy. Valid options are ${verificationPolicies.map(p => `"${p}"`).slice(0, -1).join(', ')} or "${verificationPolicies.at(-1)}"`);
  if (list.length && effective !== 'NeverVerifyAllowlistedImages') out.push('can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"');
  else {
    const bad = list.map(allowlistPattern).find(p => 'error' in p) as { error: string } | undefined;
    if (bad) out.push(`invalid image pattern in \`preloadedImagesVerificationAllowlist\`: ${bad.error}`);
  }
  return out;
}
