// The checks by level and version, as pod-security-admission's registry lays them out: a level
// at version v runs each check's behaviour for v (checks not yet existing at v are skipped);
// restricted adds its own checks and keeps the baseline ones it does not override. Checks run
// baseline first, then restricted, each group by id, which is the order of a refusal's
// reasons. Versions past the newest any check knows (and "latest") evaluate as that newest.

import type { CoreV1PodSpec } from '../../../../schema/generated/types.ts';
import type { LevelVersion } from './policy.ts';
import type { Check, CheckFn, PodMeta, Violation } from './checks/types.ts';
import { privilegeChecks } from './checks/privilege.ts';
import { capabilityChecks } from './checks/capabilities.ts';
import { hostChecks } from './checks/host.ts';
import { appArmorChecks } from './checks/apparmor.ts';
import { seLinuxChecks } from './checks/selinux.ts';
import { seccompChecks } from './checks/seccomp.ts';
import { sysctlChecks } from './checks/sysctls.ts';
import { procMountChecks } from './checks/proc-mount.ts';
import { volumeChecks } from './checks/volumes.ts';
import { runAsChecks } from './checks/run-as.ts';
import { windowsChecks } from './checks/windows.ts';

export const defaultChecks: readonly Check[] = [
  ...privilegeChecks, ...capabilityChecks, ...hostChecks, ...appArmorChecks, ...seLinuxChecks, ...seccompChecks,
  ...sysctlChecks, ...procMountChecks, ...volumeChecks, ...runAsChecks, ...windowsChecks,
];

export interface Evaluator {
  /** the newest minor version whose rules differ from the one before */
  readonly maxVersion: number;
  evaluate(lv: LevelVersion, meta: PodMeta, spec: CoreV1PodSpec): Violation[];
}

/** each check's behaviour at minor version v, if it exists there */
function atVersion(c: Check, v: number) {
  return [...c.versions].reverse().find(x => x.minimumVersion <= v);
}

/** `serverMinor` caps the versions evaluated, as an emulated older server would */
export function newEvaluator(checks: readonly Check[] = defaultChecks, serverMinor?: number): Evaluator {
  let maxVersion = Math.max(...checks.map(c => c.versions[c.versions.length - 1]!.minimumVersion));
  if (serverMinor !== undefined && serverMinor < maxVersion) maxVersion = serverMinor;
  const byId = (level: Check['level']) => checks.filter(c => c.level === level).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const baseline = byId('baseline');
  const restricted = byId('restricted');
  const cache = new Map<string, CheckFn[]>();
  function checksFor(level: 'baseline' | 'restricted', v: number): CheckFn[] {
    const key = `${level}:${v}`;
    let fns = cache.get(key);
    if (fns) return fns;
    const own = restricted.map(c => atVersion(c, v)).filter(x => !!x);
    const overridden = new Set(level === 'restricted' ? own.flatMap(x => x.overrides ?? []) : []);
    fns = [
      ...baseline.filter(c => !overridden.has(c.id)).map(c => atVersion(c, v)?.run),
      ...(level === 'restricted' ? own.map(x => x.run) : []),
    ].filter((f): f is CheckFn => !!f);
    cache.set(key, fns);
    return fns;
  }
  return {
    maxVersion,
    evaluate(lv, meta, spec) {
      if (lv.level === 'privileged') return [];
      const v = lv.version === 'latest' || lv.version > maxVersion ? maxVersion : lv.version;
      return checksFor(lv.level, v).map(f => f(meta, spec)).filter((x): x is Violation => !!x);
    },
  };
}

/** "reason (detail), reason, ...", as a refusal and a warning list them */
export function forbiddenDetail(vs: readonly Violation[]): string {
  return vs.map(v => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}

/** "reason, reason", as the warnings about existing pods list them */
export function forbiddenReasons(vs: readonly Violation[]): string {
  return vs.map(v => v.reason || 'unknown forbidden reason').join(', ');
}
