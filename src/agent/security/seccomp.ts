// Seccomp for a container (appendix D): the container's profile wins over the pod's;
// privileged containers run Unconfined; Localhost profiles are files under the agent's seccomp
// directory, checked (present, and a valid OCI seccomp profile) before the runtime is asked,
// so a bad one shows as CreateContainerError on the container.

import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

import type { CoreV1Container, CoreV1Pod } from '../../schema/generated/types.ts';

/** a JSON document read from disk, checked field by field before anything trusts it */
type Json = { [field: string]: unknown };
const isJson = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const isUint = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

export interface CriSecurityProfile { profileType: 'RuntimeDefault' | 'Unconfined' | 'Localhost'; localhostRef?: string }

export const seccompActions = ['SCMP_ACT_KILL', 'SCMP_ACT_KILL_PROCESS', 'SCMP_ACT_KILL_THREAD', 'SCMP_ACT_TRAP', 'SCMP_ACT_ERRNO', 'SCMP_ACT_TRACE', 'SCMP_ACT_ALLOW', 'SCMP_ACT_LOG', 'SCMP_ACT_NOTIFY'];
const compareOps = ['SCMP_CMP_NE', 'SCMP_CMP_LT', 'SCMP_CMP_LE', 'SCMP_CMP_EQ', 'SCMP_CMP_GE', 'SCMP_CMP_GT', 'SCMP_CMP_MASKED_EQ'];

/** the profile a container runs with; Localhost paths are resolved but not yet checked */
export function seccompProfileFor(pod: Pick<CoreV1Pod, 'spec'>, c: Pick<CoreV1Container, 'securityContext'>, seccompDir: string, seccompDefault = false): CriSecurityProfile {
  if (c.securityContext?.privileged) return { profileType: 'Unconfined' };
  const p = c.securityContext?.seccompProfile ?? pod.spec?.securityContext?.seccompProfile;
  if (!p?.type) return { profileType: seccompDefault ? 'RuntimeDefault' : 'Unconfined' };
  if (p.type === 'Localhost') return { profileType: 'Localhost', localhostRef: resolve(seccompDir, String(p.localhostProfile ?? '')) };
  return { profileType: p.type === 'RuntimeDefault' ? 'RuntimeDefault' : 'Unconfined' };
}

/** what is wrong with a profile document, per the OCI runtime specification's seccomp schema */
export function validateSeccompProfile(doc: unknown): string[] {
  const errs: string[] = [];
  if (!isJson(doc)) return ['the profile is not a JSON object'];
  const d = doc;
  const known = (list: string[], v: unknown) => typeof v === 'string' && list.includes(v);
  if (!known(seccompActions, d.defaultAction)) errs.push(`defaultAction: unsupported value ${JSON.stringify(d.defaultAction)}`);
  if (d.defaultAction === 'SCMP_ACT_NOTIFY') errs.push('defaultAction: SCMP_ACT_NOTIFY cannot be the default action');
  if (d.defaultErrnoRet !== undefined && !Number.isInteger(d.defaultErrnoRet)) errs.push('defaultErrnoRet: must be an integer');
  for (const key of ['architectures', 'flags']) { const v = d[key]; if (v !== undefined && !(Array.isArray(v) && v.every(x => typeof x === 'string'))) errs.push(`${key}: must be a list of strings`); }
  if (d.syscalls !== undefined && !Array.isArray(d.syscalls)) errs.push('syscalls: must be a list');
  (Array.isArray(d.syscalls) ? d.syscalls as unknown[] : []).forEach((s, i) => {
    const at = `syscalls[${i}]`;
    if (!isJson(s)) return void errs.push(`${at}: must be an object`);
    if (!Array.isArray(s.names) || s.names.length === 0 || !s.names.every(n => typeof n === 'string' && n)) errs.push(`${at}.names: must be a non-empty list of syscall names`);
    if (!known(seccompActions, s.action)) errs.push(`${at}.action: unsupported value ${JSON.stringify(s.action)}`);
    if (s.action === 'SCMP_ACT_NOTIFY' && Array.isArray(s.names) && s.names.includes('write')) errs.push(`${at}: SCMP_ACT_NOTIFY cannot be used for write`);
    if (s.errnoRet !== undefined && !Number.isInteger(s.errnoRet)) errs.push(`${at}.errnoRet: must be an integer`);
    (Array.isArray(s.args) ? s.args as unknown[] : s.args === undefined ? [] : [null]).forEach((a, j) => {
      if (!isJson(a)) return void errs.push(`${at}.args[${j}]: must be an object`);
      if (!isUint(a.index) || (a.index as number) > 5) errs.push(`${at}.args[${j}].index: must be 0 to 5`);
      if (!isUint(a.value)) errs.push(`${at}.args[${j}].value: must be an unsigned integer`);
      if (a.valueTwo !== undefined && !isUint(a.valueTwo)) errs.push(`${at}.args[${j}].valueTwo: must be an unsigned integer`);
      if (!known(compareOps, a.op)) errs.push(`${at}.args[${j}].op: unsupported value ${JSON.stringify(a.op)}`);
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
