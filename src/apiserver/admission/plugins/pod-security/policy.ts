// A namespace's Pod Security policy from its labels, as pod-security-admission reads them: for
// each mode (enforce, warn, audit) a level and a version ("latest" or "v1.N"), falling back to
// the configured defaults. A label that cannot be read is a field error (namespace writes are
// refused for it) and still yields a policy: an unreadable enforce level is restricted, an
// unreadable warn or audit level privileged (they fail open), an unreadable version latest.
// Without its own warn label, warn follows an explicit enforce level that is stricter.

import type { FieldError } from '../../../../api/status.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';
export type Mode = 'enforce' | 'warn' | 'audit';
/** the minor version of v1.x, or 'latest' */
export type Version = number | 'latest';
export interface LevelVersion { level: Level; version: Version }
export type Policy = Record<Mode, LevelVersion>;

export const labelPrefix = 'pod-security.kubernetes.io/';
export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];
const modes: readonly Mode[] = ['enforce', 'audit', 'warn'];

export const levelError = 'must be one of privileged, baseline, restricted';
export const versionError = 'must be "latest" or "v1.x"';

export function parseLevel(s: string): Level | undefined {
  return levels.includes(s as Level) ? s as Level : undefined;
}

export function parseVersion(s: string): Version | undefined {
  if (s === 'latest') return 'latest';
  const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const minor = Number(m[1]);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** "restricted:latest", "baseline:v1.33", as messages name a policy */
export const policyName = (p: LevelVersion) => `${p.level}:${p.version === 'latest' ? 'latest' : `v1.${p.version}`}`;

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion) => a.level === b.level && a.version === b.version;

/** how strict a level is, for comparisons */
export const strictness = (l: Level) => levels.indexOf(l);

export const fullyPrivileged = (p: Policy) => p.enforce.level === 'privileged' && p.warn.level === 'privileged' && p.audit.level === 'privileged';

/** both privileged, or the same level and version */
export const equivalent = (a: LevelVersion, b: LevelVersion) => (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);

export const privilegedLatest: Policy = { enforce: { level: 'privileged', version: 'latest' }, warn: { level: 'privileged', version: 'latest' }, audit: { level: 'privileged', version: 'latest' } };

export interface Evaluated { policy: Policy; errors: FieldError[] }

export function policyOf(labels: Record<string, string> | undefined, defaults: Policy = privilegedLatest): Evaluated {
  const p: Policy = { enforce: { ...defaults.enforce }, warn: { ...defaults.warn }, audit: { ...defaults.audit } };
  const errors: FieldError[] = [];
  if (!labels || !Object.keys(labels).length) return { policy: p, errors };
  const bad = (label: string, value: string, detail: string) => errors.push({ type: 'FieldValueInvalid', field: `metadata.labels[${label}]`, value, detail });
  let explicitEnforceLevel = false;
  for (const mode of modes) {
    const levelLabel = labelPrefix + mode;
    const versionLabel = `${levelLabel}-version`;
    if (levelLabel in labels) {
      const level = parseLevel(labels[levelLabel]!);
      if (level) {
        p[mode].level = level;
        if (mode === 'enforce') explicitEnforceLevel = true;
      } else {
        bad(levelLabel, labels[levelLabel]!, levelError);
        p[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
      }
    }
    if (versionLabel in labels) {
      const version = parseVersion(labels[versionLabel]!);
      if (version === undefined) bad(versionLabel, labels[versionLabel]!, versionError);
      p[mode].version = version ?? 'latest';
    }
  }
  if (!(`${labelPrefix}warn` in labels) && explicitEnforceLevel && strictness(p.enforce.level) > strictness(p.warn.level)) {
    p.warn.level = p.enforce.level;
    if (!(`${labelPrefix}warn-version` in labels)) p.warn.version = p.enforce.version;
  }
  return { policy: p, errors };
}
