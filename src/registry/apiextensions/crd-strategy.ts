// CustomResourceDefinitions as kube-apiserver's CRD strategy and REST storage treat them:
// status.storedVersions starts with the storage version and gains every later one; the first
// delete adds the cleanup finalizer and the Terminating condition, so the objects go before the
// definition (the CRD controller removes them and then the finalizer).

import { deepClone, type KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { strategyWith } from '../strategy.ts';
import { validateCrdSchemas } from './crd-schemas.ts';
import { validateCrdColumnsAndFields } from './crd-columns.ts';
import { cleanupFinalizer, storageVersionOf, withCondition, type Crd } from './crd-types.ts';
import { conversionErrors, preserveUnknownFieldsErrors, storedVersionErrors } from './conversion/crd-validation.ts';
import type { FieldError } from '../../api/status.ts';

function recordStorageVersion(crd: Crd): void {
  const storage = storageVersionOf(crd);
  if (!storage) return;
  const status = crd.status ??= {};
  const stored = status.storedVersions ?? [];
  if (!stored.includes(storage)) status.storedVersions = [...stored, storage];
}

/** apiextensions/v1's defaults: singular and listKind from the kind, conversion None */
function applyDefaults(crd: Crd): void {
  const spec = crd.spec as Crd['spec'] & { conversion?: { strategy?: string } } | undefined;
  if (!spec) return;
  const names = spec.names;
  if (names?.kind) {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = (spec.conversion as Crd['spec']['conversion'])?.webhook?.clientConfig?.service;
  if (service && service.port == null) service.port = 443;
}

/** the CRD's checks, in kube-apiserver's order: schemas, columns and selectable fields, conversion, storedVersions, preserveUnknownFields */
function validateCrd(obj: Crd, old?: Crd): FieldError[] {
  const preserve = preserveUnknownFieldsErrors(obj, old);
  return [...validateCrdSchemas(obj, old), ...validateCrdColumnsAndFields(obj, old), ...preserve.spec, ...conversionErrors(obj, old), ...storedVersionErrors(obj), ...preserve.late];
}

export const crdStrategy = strategyWith<Crd>({
  tracksGeneration: true,
  validateCreate: obj => validateCrd(obj),
  validateUpdate: (obj, old) => validateCrd(obj, old),
  // kube-apiserver checks nothing of the spec, nor storedVersions, on a write through status
  validateStatusUpdate: () => [],
  defaults: applyDefaults,
  prepareForCreate(obj) {
    applyDefaults(obj);
    // a new definition starts with no names accepted and no conditions, whatever its body says
    obj.status = { acceptedNames: { plural: '', kind: '' } };
    recordStorageVersion(obj);
  },
  prepareForUpdate(obj) {
    applyDefaults(obj);
    recordStorageVersion(obj);
  },
  finalizersOf(obj) {
    const finalizers = obj.metadata.finalizers ?? [];
    // not yet marked: the cleanup finalizer is about to be added (markDeleting)
    return obj.metadata.deletionTimestamp || finalizers.includes(cleanupFinalizer) ? finalizers : [...finalizers, cleanupFinalizer];
  },
  markDeleting(obj) {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(cleanupFinalizer)) obj.metadata.finalizers = [...finalizers, cleanupFinalizer];
    const status = obj.status = deepClone(obj.status ?? {});
    status.conditions = withCondition(status.conditions, {
      type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    }, obj.metadata.deletionTimestamp ?? rfc3339(new Date()));
  },
});

/** the object as a CRD, for code outside the strategy (the store hands strategies KubeObjects) */
export function asCrd(obj: KubeObject): Crd {
  return obj as Crd;
}
