// The 409 an apply gets when it would change fields other managers own, worded as Kubernetes
// words it (kubectl prints the message as it is and reads the causes).

import { StatusError } from '../api/status.ts';
import { pathString, type Path } from './field-set.ts';

export interface Conflict {
  manager: string;
  apiVersion: string;
  operation: 'Apply' | 'Update';
  subresource?: string;
  path: Path;
}

// an applier is named alone: its identity leaves out the version, as it is the same whatever
// version it applies in; an updater with the version it wrote
function ownerWords(c: Conflict): string {
  const who = c.subresource ? `${JSON.stringify(c.manager)} with subresource ${JSON.stringify(c.subresource)}` : JSON.stringify(c.manager);
  return c.operation === 'Apply' ? who : `${who} using ${c.apiVersion}`;
}

export function conflictStatus(conflicts: Conflict[]): StatusError {
  const byOwner = new Map<string, string[]>();
  for (const c of conflicts) {
    const k = ownerWords(c);
    if (!byOwner.has(k)) byOwner.set(k, []);
    byOwner.get(k)!.push(pathString(c.path));
  }
  const n = conflicts.length;
  let message = `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: `;
  const parts: string[] = [];
  for (const [owner, paths] of byOwner) {
    parts.push(paths.length === 1 ? `conflict with ${owner}: ${paths[0]}` : `conflicts with ${owner}:\n${paths.map(p => `- ${p}`).join('\n')}`);
  }
  message += parts.join('\n');
  return new StatusError(409, 'Conflict', message, {
    causes: conflicts.map(c => ({ reason: 'FieldManagerConflict', message: `conflict with ${ownerWords(c)}`, field: pathString(c.path) })),
  });
}
