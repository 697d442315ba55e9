// kube-apiserver's audit flags, checked with its messages, and the auditor they make: no policy
// file or no log path means no events, as in kube-apiserver.

import type { Logger } from '../../api/log.ts';
import { loadPolicyFile } from './policy.ts';
import { openLogFile } from './backend/log-file.ts';
import { createAuditor, type Auditor } from './recorder.ts';

export interface AuditFlags {
  policyFile?: string;
  logPath?: string;
  /** megabytes before rotation (0: never) */
  maxSize?: number;
  maxBackup?: number;
  /** days */
  maxAge?: number;
  format?: string;
}

const formats = ['legacy', 'json'];

export function validateAuditFlags(f: AuditFlags): string[] {
  const errors: string[] = [];
  for (const [name, v] of [['maxsize', f.maxSize], ['maxbackup', f.maxBackup], ['maxage', f.maxAge]] as const) {
    if (v !== undefined && !(v >= 0)) errors.push(`--audit-log-${name} ${v} can't be a negative number`);
  }
  if (f.format !== undefined && !formats.includes(f.format)) errors.push(`invalid audit log format ${f.format}, allowed formats are "${formats.join(',')}"`);
  return errors;
}

export async function buildAuditor(f: AuditFlags, log: Logger): Promise<Auditor | undefined> {
  const errors = validateAuditFlags(f);
  if (errors.length) throw new Error(errors.join(', '));
  if (!f.policyFile) {
    if (f.logPath) log.info('no audit policy file provided, no events will be recorded');
    return undefined;
  }
  const policy = await loadPolicyFile(f.policyFile);
  if (!f.logPath) return undefined;
  const writer = openLogFile({ path: f.logPath, maxSizeMB: f.maxSize, maxBackups: f.maxBackup, maxAgeDays: f.maxAge, onError: err => log.error('audit log write failed', { err: String(err) }) });
  return createAuditor(policy, writer, f.format === 'legacy' ? 'legacy' : 'json');
}
