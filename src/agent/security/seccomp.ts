// Seccomp for a container (appendix D): the container's profile wins over the pod's;
// privileged containers run Unconfined; Localhost profiles are files under the agent's seccomp
// directory, checked (present, and a valid OCI seccomp profile) before the runtime is asked,
// so a bad one shows as CreateContainerError on the container.

import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

type Obj = Record<string, any>;

export interface CriSecurityProfile { profileType: 'RuntimeDefault' | 'Unconfined' | 'Localhost'; localhostRef?: string }

export const seccompActions = ['SCMP_ACT_KILL', 'SCMP_ACT_KILL_PROCESS', 'SCMP_ACT_KILL_THREAD', 'SCMP_ACT_TRAP', 'SCMP_ACT_ERRNO', 'SCMP_ACT_TRACE', 'SCMP_ACT_ALLOW', 'SCMP_ACT_LOG', 'SCMP_ACT_NOTIFY'];
const compareOps = ['SCMP_CMP_NE', 'SCMP_CMP_LT', 'SCMP_CMP_LE', 'SCMP_CMP_EQ', 'SCMP_CMP_GE', 'SCMP_CMP_GT', 'SCMP_CMP_MASKED_EQ'];

/** the profile a container runs with; Localhost paths are resolved but not yet checked */
export function seccompProfileFor(pod: Obj, c: Obj, seccompDir: string, seccompDefault = false): CriSecurityProfile {
  if (c.securityContext?.privileged) return { profileType: 'Unconfined' };
  const p = c.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile;
  if (!p?.type) return { profileType: seccompDefault ? 'RuntimeDefault' : 'Unconfined' };
  if (p.type === 'Localhost') return { profileType: 'Localhost', localhostRef: resolve(seccompDir, String(p.localhostProfile ?? '')) };
  return { profileType: p.type === 'RuntimeDefault' ? 'RuntimeDefault' : 'Unconfined' };
}

/** what is wrong with a profile document, per the OCI runtime specification's seccomp schema */
export function validateSeccompProfile(doc: unknown): string[] {
  const errs: string[] = [];
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return ['the profile is not a JSON object'];
  const d = doc as Obj;
  if (!seccompActions.includes(d.defaultAction)) errs.push(`defaultAction: unsupported value ${JSON.stringify(d.defaultAction)}`);
  if (d.defaultAction === 'SCMP_ACT_NOTIFY') errs.push('defaultAction: SCMP_ACT_NOTIFY cannot be the default action');
  if (d.defaultErrnoRet !== undefined && !Number.isInteger(d.defaultErrnoRet)) errs.push('defaultErrnoRet: must be an integer');
  for (const key of ['architectures', 'flags']) if (d[key] !== undefined && !(Array.isArray(d[key]) && d[key].every((x: unknown) => typeof x === 'string'))) errs.push(`${key}: must be a list of strings`);
  if (d.syscalls !== undefined && !Array.isArray(d.syscalls)) errs.push('syscalls: must be a list');
  (Array.isArray(d.syscalls) ? d.syscalls : []).forEach((s: Obj, i: number) => {
    const at = `syscalls[${i}]`;
    if (!s || typeof s !== 'object') return void errs.push(`${at}: must be an object`);
    if (!Array.isArray(s.names) || s.names.length === 0 || !s.names.every((n: unknown) => typeof n === 'string' && n)) errs.push(`${at}.names: must be a non-empty list of syscall names`);
    if (!seccompActions.includes(s.action)) errs.push(`${at}.action: unsupported value ${JSON.stringify(s.action)}`);
    if (s.action === 'SCMP_ACT_NOTIFY' && Array.isArray(s.names) && s.names.includes('write')) errs.push(`${at}: SCMP_ACT_NOTIFY cannot be used for write`);
    if (s.errnoRet !== undefined && !Number.isInteger(s.errnoRet)) errs.push(`${at}.errnoRet: must be an integer`);
    (Array.isArray(s.args) ? s.args : s.args === undefined ? [] : [null]).forEach((a: Obj, j: number) => {
      if (!a || typeof a !== 'object') return void errs.push(`${at}.args[${j}]: must be an object`);
      if (!Number.isInteger(a.index) || a.index < 0 || a.index > 5) errs.push(`${at}.args[${j}].index: must be 0 to 5`);
      if (!Number.isInteger(a.value) || a.value < 0) errs.push(`${at}.args[${j}].value: must be an unsigned integer`);
      if (a.valueTwo !== undefined && (!Number.isInteger(a.valueTwo) || a.valueTwo < 0)) errs.push(`${at}.args[${j}].valueTwo: must be an unsigned integer`);
      if (!compareOps.includes(a.op)) errs.push(`${at}.args[${j}].op: unsupported value ${JSON.stringify(a.op)}`);
    });
  });
  return errs;
}

/** why a Localhost profile cannot be used (the CreateContainerError message), or undefined */
export async function localhostProfileProblem(profile: CriSecurityProfile, seccompDir: string): Promise<string | undefined> {
  if (profile.profileType !== 'Localhost') return undefined;
  const path = profile.localhostRef ?? '';
  if (!path.startsWith(resolve(seccompDir) + sep)) return `seccomp profile "${path}" is outside the seccomp profile directory ${resolve(seccompDir)}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return `cannot load seccomp profile "${path}": open ${path}: ${code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`;
  }
  let doc: unknown;
  try { doc = JSON.parse(text); } catch (err) { return `decoding seccomp profile failed: "${path}": ${(err as Error).message}`; }
  const errs = validateSeccompProfile(doc);
  return errs.length ? `decoding seccomp profile failed: "${path}": ${errs.join('; ')}` : undefined;
}
