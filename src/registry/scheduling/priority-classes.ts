// PriorityClasses (scheduling.k8s.io/v1): Kubernetes' defaults and validation. A user's class may
// not exceed 1000000000; names with the `system-` prefix are the two system classes only, with
// their fixed values; value and preemptionPolicy never change. Which class is the one
// globalDefault is the Priority admission plugin's check, as in Kubernetes.

import { strategyWith } from '../strategy.ts';
import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { SchedulingV1PriorityClass } from '../../schema/generated/types.ts';
import { defaultPreemptionPolicy, highestUserDefinablePriority, preemptionPolicies, systemClassError, systemPriorityClassPrefix } from '../../api/priority-classes.ts';
import { immutableField } from '../validation/immutable.ts';

type PriorityClass = SchedulingV1PriorityClass & KubeObject;

/** as the Go type decodes and defaults it: value always present, globalDefault false left out */
function defaults(obj: PriorityClass): void {
  obj.value ??= 0;
  if (obj.globalDefault === false) delete obj.globalDefault;
  obj.preemptionPolicy ??= defaultPreemptionPolicy;
}

export function validatePriorityClass(obj: PriorityClass): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const value = obj.value ?? 0;
  if (name.startsWith(systemPriorityClassPrefix)) {
    const why = systemClassError(name, value, obj.globalDefault === true);
    if (why) errs.push({ type: 'FieldValueForbidden', field: 'metadata.name', detail: `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}` });
  } else if (value > highestUserDefinablePriority) {
    errs.push({ type: 'FieldValueForbidden', field: 'value', detail: `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}` });
  }
  const policy = obj.preemptionPolicy;
  if (policy === '') errs.push({ type: 'FieldValueRequired', field: 'preemptionPolicy', detail: '' });
  else if (policy !== undefined && !preemptionPolicies.includes(policy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'preemptionPolicy', value: policy, detail: `supported values: ${preemptionPolicies.map(p => JSON.stringify(p)).join(', ')}` });
  }
  return errs;
}

export function validatePriorityClassUpdate(obj: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validatePriorityClass(obj);
  if ((obj.value ?? 0) !== (old.value ?? 0)) errs.push({ type: 'FieldValueForbidden', field: 'value', detail: 'may not be changed in an update.' });
  if (obj.preemptionPolicy !== old.preemptionPolicy) errs.push(immutableField('preemptionPolicy', obj.preemptionPolicy));
  return errs;
}

export const priorityClassStrategy = strategyWith<PriorityClass>({
  prepareForCreate: defaults,
  prepareForUpdate: defaults,
  validateCreate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
});
