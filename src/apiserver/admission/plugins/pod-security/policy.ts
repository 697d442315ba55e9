// A namespace's Pod Security policy from its labels: for each mode (enforce, warn, audit) a
// level (privileged, baseline, restricted; privileged when unset) and a version ("latest" or
// "v1.N"; latest when unset). A label that cannot be read counts as restricted:latest, the
// strictest, as Kubernetes evaluates it.

import type { Level } from './checks.ts';

export type Mode = 'enforce' | 'warn' | 'audit';
export interface LevelVersion { level: Level; version: string }
export type Policy = Record<Mode, LevelVersion>;

export const labelPrefix = 'pod-security.kubernetes.io/';
const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** the configured defaults, by label name without the prefix ("enforce", "enforce-version", ...) */
export type Defaults = Readonly<Record<string, string>>;

function read(labels: Record<string, string>, mode: Mode, defaults: Defaults): LevelVersion {
  const level = labels[`${labelPrefix}${mode}`] ?? defaults[mode];
  const version = labels[`${labelPrefix}${mode}-version`] ?? defaults[`${mode}-version`];
  const badLevel = level !== undefined && !levels.includes(level as Level);
  const badVersion = version !== undefined && version !== 'latest' && !/^v1\.(0|[1-9][0-9]*)$/.test(version);
  if (badLevel || badVersion) return { level: 'restricted', version: 'latest' };
  return { level: (level as Level | undefined) ?? 'privileged', version: version ?? 'latest' };
}

export function policyOf(labels: Record<string, string> | undefined, defaults: Defaults = {}): Policy {
  const l = labels ?? {};
  return { enforce: read(l, 'enforce', defaults), warn: read(l, 'warn', defaults), audit: read(l, 'audit', defaults) };
}

/** "restricted:latest", as messages name a policy */
export const policyName = (p: LevelVersion) => `${p.level}:${p.version}`;
