// Workload objects (Deployments, ReplicaSets, StatefulSets, DaemonSets, ReplicationControllers;
// Jobs and CronJobs are checked in job.ts and cronjob.ts): a selector that selects the template's labels, a valid pod template, and the
// selector fixed after creation.

import { isObject, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { labelSelectorFromObject, labelSelectorFromSet, matchesLabels } from '../../api/selectors/label.ts';
import { validateSelectorUnchanged } from './immutable.ts';
import { validatePodSpec } from './pod-spec.ts';

type Obj = Record<string, unknown>;

const singular: Record<string, string> = {
  deployments: 'deployment', replicasets: 'replicaset', statefulsets: 'statefulset', daemonsets: 'daemonset',
};

function templateErrors(template: unknown, path: string, restartPolicies?: string[]): FieldError[] {
  if (!isObject(template)) return [{ type: 'FieldValueRequired', field: path }];
  return validatePodSpec(template.spec, `${path}.spec`, restartPolicies);
}

function templateLabels(s: Obj): Record<string, string> {
  const t = isObject(s.template) ? s.template : {};
  const m = isObject(t.metadata) ? t.metadata : {};
  return (isObject(m.labels) ? m.labels : {}) as Record<string, string>;
}

export function validateWorkloadSpec(resource: string, obj: KubeObject): FieldError[] {
  const s: Obj = isObject(obj.spec) ? obj.spec : {};
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'minReadySeconds', 'revisionHistoryLimit']) {
    if (typeof s[f] === 'number' && (s[f] as number) < 0) errs.push({ type: 'FieldValueInvalid', field: `spec.${f}`, value: s[f], detail: 'must be greater than or equal to 0' });
  }
  if (resource === 'replicationcontrollers') {
    const sel = isObject(s.selector) ? s.selector as Record<string, string> : undefined;
    if (sel && Object.keys(sel).length && !matchesLabels(labelSelectorFromSet(sel), templateLabels(s))) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', value: templateLabels(s), detail: '`selector` does not match template `labels`' });
    }
    if (s.template !== undefined) errs.push(...templateErrors(s.template, 'spec.template', ['Always']));
    return errs;
  }
  if (!isObject(s.selector)) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector' });
  } else {
    let sel;
    try { sel = labelSelectorFromObject(s.selector); } catch (err) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', value: s.selector, detail: (err as Error).message });
    }
    if (!sel) { /* reported above */ } else if (sel.empty) errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', value: s.selector, detail: `empty selector is invalid for ${singular[resource] ?? resource}` });
    else if (!matchesLabels(sel, templateLabels(s))) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', value: templateLabels(s), detail: '`selector` does not match template `labels`' });
    }
  }
  errs.push(...templateErrors(s.template, 'spec.template', ['Always']));
  return errs;
}

export function validateWorkloadUpdate(resource: string, obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateWorkloadSpec(resource, obj);
  if (resource !== 'replicationcontrollers') errs.push(...validateSelectorUnchanged(obj, old));
  return errs;
}
