// APIService names: <version>.<group> exactly (so "v1." for the core group, which a DNS
// subdomain rule would refuse), as kube-aggregator's validation requires.

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';

export function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = (obj as { spec?: { group?: string; version?: string } }).spec ?? {};
  const name = obj.metadata.name ?? '';
  if (name === `${spec.version ?? ''}.${spec.group ?? ''}`) return [];
  return [{ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail: 'must be `spec.version+"."+spec.group`' }];
}
