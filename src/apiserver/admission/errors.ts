// A plugin's refusal as kube-apiserver words it: `<resource> "<name>" is forbidden: <why>`,
// where a create not yet named (generateName) shows its name, else its prefix, else "Unknown".

import { forbidden, type StatusError } from '../../api/status.ts';
import type { AdmissionAttributes } from './types.ts';

export function admissionForbidden(a: AdmissionAttributes, why: string): StatusError {
  const meta = a.object?.metadata;
  const name = a.name || (a.object ? meta?.name || meta?.generateName || 'Unknown' : 'Unknown');
  return forbidden({ group: a.resource.group, resource: a.resource.resource }, name, why);
}
