// kube-apiserver's audit flags, taken by `orch server` and `orch up`: the policy, the log file
// (or `-` for standard output), its rotation and format. Checked when the server starts
// (apiserver/audit/options.ts).

import type { Flag } from './command.ts';
import type { AuditFlags } from '../apiserver/audit/options.ts';

export const auditFlags: Record<string, Flag> = {
  'audit-policy-file': { type: 'string', default: '', description: 'an audit.k8s.io/v1 Policy: which requests are audited, and at which level' },
  'audit-log-path': { type: 'string', default: '', description: 'file the audit events are written to, one per line; - is standard output' },
  'audit-log-maxsize': { type: 'string', default: '0', description: 'megabytes of the audit log before it is rotated (0: never)' },
  'audit-log-maxbackup': { type: 'string', default: '0', description: 'rotated audit logs kept (0: no limit)' },
  'audit-log-maxage': { type: 'string', default: '0', description: 'days a rotated audit log is kept (0: no limit)' },
  'audit-log-format': { type: 'string', default: 'json', description: 'format of the audit log: json (one Event per line) or legacy (one line of text per event)' },
};

export function auditOptions(values: Record<string, string | boolean | undefined>): { audit: AuditFlags } {
  const num = (name: string) => Number(values[name] ?? 0);
  return {
    audit: {
      policyFile: String(values['audit-policy-file'] ?? '') || undefined,
      logPath: String(values['audit-log-path'] ?? '') || undefined,
      maxSize: num('audit-log-maxsize'), maxBackup: num('audit-log-maxbackup'), maxAge: num('audit-log-maxage'),
      format: String(values['audit-log-format'] ?? 'json'),
    },
  };
}
