// metadata.ownerReferences and the garbage collector's finalizers, checked on every write as
// Kubernetes' ObjectMeta validation checks them: each reference names a version, kind, name and
// uid; Events may not own; one controller at most; orphan and foregroundDeletion never together.

import type { KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { foregroundFinalizer, orphanFinalizer } from '../gc-policy.ts';

interface Ref { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean }

// kinds that may never own anything (apiVersion/kind as Kubernetes lists them)
const bannedOwners = new Set(['v1/Event']);

/** apiVersion as Go's schema.ParseGroupVersion splits it: "v1" is core, "g/v" a group */
function versionOf(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export function validateOwnerReferences(obj: KubeObject): FieldError[] {
  const refs = obj.metadata.ownerReferences as Ref[] | undefined;
  const errors: FieldError[] = [];
  const field = 'metadata.ownerReferences';
  let controller = '';
  for (const ref of refs ?? []) {
    const { group, version } = versionOf(ref.apiVersion ?? '');
    if (!version) errors.push({ type: 'FieldValueInvalid', field: `${field}.apiVersion`, value: ref.apiVersion ?? '', detail: 'version must not be empty' });
    if (!ref.kind) errors.push({ type: 'FieldValueInvalid', field: `${field}.kind`, value: ref.kind ?? '', detail: 'must not be empty' });
    if (!ref.name) errors.push({ type: 'FieldValueInvalid', field: `${field}.name`, value: ref.name ?? '', detail: 'must not be empty' });
    if (!ref.uid) errors.push({ type: 'FieldValueInvalid', field: `${field}.uid`, value: ref.uid ?? '', detail: 'must not be empty' });
    if (bannedOwners.has(`${ref.apiVersion}/${ref.kind}`)) {
      errors.push({ type: 'FieldValueInvalid', field, value: ref, detail: `${group}/${version}, Kind=${ref.kind} is disallowed from being an owner` });
    }
    if (ref.controller) {
      const current = `${ref.kind}/${ref.name}`;
      if (controller) {
        errors.push({ type: 'FieldValueInvalid', field, value: refs, detail: `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}` });
      } else {
        controller = current;
      }
    }
  }
  const finalizers = obj.metadata.finalizers ?? [];
  if (finalizers.includes(orphanFinalizer) && finalizers.includes(foregroundFinalizer)) {
    errors.push({ type: 'FieldValueInvalid', field: 'metadata.finalizers', value: finalizers, detail: `finalizer ${orphanFinalizer} and ${foregroundFinalizer} cannot be both set` });
  }
  return errors;
}
