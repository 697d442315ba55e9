// Fields that may not change after creation, and how Kubernetes says so.

import { isObject, jsonEqual, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';

type Obj = Record<string, unknown>;

export function immutableField(field: string, value: unknown): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail: 'field is immutable' };
}

/** ConfigMaps and Secrets marked `immutable: true`: data and the flag itself are frozen */
export function validateImmutableData(obj: KubeObject, old: KubeObject): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  const frozen = 'field is immutable when `immutable` is set';
  if (obj.immutable !== true) errs.push({ type: 'FieldValueForbidden', field: 'immutable', detail: frozen });
  for (const field of ['data', 'binaryData', 'stringData']) {
    if (!jsonEqual(obj[field] ?? {}, old[field] ?? {})) errs.push({ type: 'FieldValueForbidden', field, detail: frozen });
  }
  return errs;
}

/** a Secret's type never changes */
export function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateImmutableData(obj, old);
  if ((obj.type ?? 'Opaque') !== (old.type ?? 'Opaque')) errs.push(immutableField('type', obj.type));
  return errs;
}

const podMutable = 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/**
 * A Pod's spec is fixed except for container images, activeDeadlineSeconds, added tolerations,
 * removed scheduling gates and terminationGracePeriodSeconds; nodeName is set by binding only.
 */
export function validatePodSpecUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const s = (isObject(obj.spec) ? obj.spec : {}) as Obj;
  const o = (isObject(old.spec) ? old.spec : {}) as Obj;
  const errs: FieldError[] = [];
  const ads = s.activeDeadlineSeconds, oldAds = o.activeDeadlineSeconds;
  if (typeof oldAds === 'number' && (ads === undefined || (typeof ads === 'number' && ads > oldAds))) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', value: ads ?? null, detail: 'must be less than or equal to previous value' });
  }
  const oldTolerations = Array.isArray(o.tolerations) ? o.tolerations : [];
  const tolerations = Array.isArray(s.tolerations) ? s.tolerations : [];
  const tolerationsOk = oldTolerations.every(t => tolerations.some(n => jsonEqual(n, t)));
  const gatesOk = (Array.isArray(s.schedulingGates) ? s.schedulingGates : []).every(g =>
    (Array.isArray(o.schedulingGates) ? o.schedulingGates : []).some(x => jsonEqual(x, g)));
  // compare with the mutable fields taken from the old spec
  const normalized: Obj = { ...s, activeDeadlineSeconds: o.activeDeadlineSeconds, tolerations: o.tolerations, schedulingGates: o.schedulingGates, terminationGracePeriodSeconds: o.terminationGracePeriodSeconds };
  for (const key of ['containers', 'initContainers'] as const) {
    const now = s[key], was = o[key];
    if (Array.isArray(now) && Array.isArray(was) && now.length === was.length) {
      normalized[key] = now.map((c, i) => isObject(c) && isObject(was[i]) ? { ...c, image: (was[i] as Obj).image } : c);
    }
  }
  for (const k of Object.keys(normalized)) if (normalized[k] === undefined) delete normalized[k];
  if (!tolerationsOk || !jsonEqual(normalized, o) || !gatesOk) errs.push({ type: 'FieldValueForbidden', field: 'spec', detail: podMutable });
  return errs;
}

/** `spec.selector` of a workload never changes (apps/v1 and batch/v1) */
export function validateSelectorUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  const s = (isObject(obj.spec) ? obj.spec : {}) as Obj;
  const o = (isObject(old.spec) ? old.spec : {}) as Obj;
  return jsonEqual(s.selector ?? null, o.selector ?? null) ? [] : [immutableField('spec.selector', s.selector ?? null)];
}
