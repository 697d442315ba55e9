// Every object's metadata: label keys and values, annotation keys and the annotations' total size,
// checked on each write with the shared rules of src/api/label-rules.ts.

import type { KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { metadataLabelValueErrors, qualifiedNameErrors } from '../../api/label-rules.ts';
import { validateOwnerReferences } from './owner-references.ts';

/** label and annotation keys and values, as every object's metadata is checked */
export function validateMetadata(obj: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const labels = obj.metadata.labels ?? {};
  for (const [k, v] of Object.entries(labels)) {
    for (const d of qualifiedNameErrors(k)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value: k, detail: d });
    if (typeof v !== 'string') continue;
    for (const d of metadataLabelValueErrors(v)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.labels', value: v, detail: d });
  }
  let total = 0;
  for (const [k, v] of Object.entries(obj.metadata.annotations ?? {})) {
    for (const d of qualifiedNameErrors(k.toLowerCase())) errors.push({ type: 'FieldValueInvalid', field: 'metadata.annotations', value: k, detail: d });
    total += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (total > 256 * 1024) errors.push({ type: 'FieldValueTooLong', field: 'metadata.annotations', detail: 'may not be more than 262144 bytes' });
  errors.push(...validateOwnerReferences(obj));
  return errors;
}
