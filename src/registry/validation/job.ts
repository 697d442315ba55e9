// Jobs and the job templates of CronJobs, checked as Kubernetes' batch validation checks them:
// counts not negative, Indexed-only fields, restart policies, pod failure and success policies,
// the generated selector and labels, and which parts of the spec are fixed after creation.

import { isObject, jsonEqual, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { dns1123Label } from '../../api/names.ts';
import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import { immutableField } from './immutable.ts';
import { validatePodSpec } from './pod-spec.ts';

type Obj = Record<string, any>;

const nonNegative = ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes'];

const notSupported = (field: string, value: unknown, allowed: string[]): FieldError =>
  ({ type: 'FieldValueNotSupported', field, value, detail: `supported values: ${allowed.map(a => JSON.stringify(a)).join(', ')}` });

function podFailurePolicyErrors(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Array.isArray(s.podFailurePolicy?.rules) ? s.podFailurePolicy.rules : [];
  if (rules.length > 20) errs.push({ type: 'FieldValueTooMany', field: `${path}.rules`, value: rules.length, detail: 'must have at most 20 items' });
  rules.forEach((r: Obj, i: number) => {
    const at = `${path}.rules[${i}]`;
    if (!['Count', 'FailIndex', 'FailJob', 'Ignore'].includes(r?.action)) errs.push(notSupported(`${at}.action`, r?.action, ['Count', 'FailIndex', 'FailJob', 'Ignore']));
    if (r?.action === 'FailIndex' && s.backoffLimitPerIndex === undefined) {
      errs.push({ type: 'FieldValueInvalid', field: `${at}.action`, value: r.action, detail: 'requires the backoffLimitPerIndex to be set' });
    }
    if (r?.onExitCodes && r?.onPodConditions) errs.push({ type: 'FieldValueInvalid', field: at, value: '', detail: 'specifying both OnExitCodes and OnPodConditions is not supported' });
    if (!r?.onExitCodes && !r?.onPodConditions) errs.push({ type: 'FieldValueInvalid', field: at, value: '', detail: 'specifying one of OnExitCodes and OnPodConditions is required' });
    const ec = r?.onExitCodes;
    if (ec) {
      if (!['In', 'NotIn'].includes(ec.operator)) errs.push(notSupported(`${at}.onExitCodes.operator`, ec.operator, ['In', 'NotIn']));
      const values: unknown[] = Array.isArray(ec.values) ? ec.values : [];
      if (values.length === 0) errs.push({ type: 'FieldValueRequired', field: `${at}.onExitCodes.values`, detail: 'at least one value is required' });
      if (ec.operator === 'In') values.forEach((v, j) => { if (v === 0) errs.push({ type: 'FieldValueInvalid', field: `${at}.onExitCodes.values[${j}]`, value: 0, detail: 'must not be 0 for the In operator' }); });
    }
  });
  return errs;
}

/** what validateJobSpec checks, for Jobs and for CronJobs' job templates */
export function jobSpecErrors(spec: unknown, path: string): FieldError[] {
  const s: Obj = isObject(spec) ? spec : {};
  const errs: FieldError[] = [];
  for (const f of nonNegative) {
    if (typeof s[f] === 'number' && s[f] < 0) errs.push({ type: 'FieldValueInvalid', field: `${path}.${f}`, value: s[f], detail: 'must be greater than or equal to 0' });
  }
  if (typeof s.managedBy === 'string' && s.managedBy.length > 63) errs.push({ type: 'FieldValueTooLong', field: `${path}.managedBy`, value: s.managedBy, detail: 'may not be more than 63 bytes' });
  if (s.maxFailedIndexes !== undefined && s.backoffLimitPerIndex === undefined) {
    errs.push({ type: 'FieldValueRequired', field: `${path}.backoffLimitPerIndex`, detail: 'when maxFailedIndexes is specified' });
  }
  const indexed = s.completionMode === 'Indexed';
  if (s.completionMode !== undefined && !['NonIndexed', 'Indexed'].includes(s.completionMode)) {
    errs.push(notSupported(`${path}.completionMode`, s.completionMode, ['NonIndexed', 'Indexed']));
  }
  if (indexed) {
    if (s.completions === undefined || s.completions === null) errs.push({ type: 'FieldValueRequired', field: `${path}.completions`, detail: 'when completion mode is Indexed' });
    if (typeof s.parallelism === 'number' && s.parallelism > 100000) errs.push({ type: 'FieldValueInvalid', field: `${path}.parallelism`, value: s.parallelism, detail: 'must be less than or equal to 100000 when completion mode is Indexed' });
    if (typeof s.completions === 'number' && typeof s.maxFailedIndexes === 'number' && s.maxFailedIndexes > s.completions) {
      errs.push({ type: 'FieldValueInvalid', field: `${path}.maxFailedIndexes`, value: s.maxFailedIndexes, detail: 'must be less than or equal to completions' });
    }
  } else {
    if (s.backoffLimitPerIndex !== undefined) errs.push({ type: 'FieldValueInvalid', field: `${path}.backoffLimitPerIndex`, value: s.backoffLimitPerIndex, detail: 'requires indexed completion mode' });
    if (s.maxFailedIndexes !== undefined) errs.push({ type: 'FieldValueInvalid', field: `${path}.maxFailedIndexes`, value: s.maxFailedIndexes, detail: 'requires indexed completion mode' });
  }
  if (s.podFailurePolicy !== undefined) errs.push(...podFailurePolicyErrors(s, `${path}.podFailurePolicy`));
  if (s.successPolicy !== undefined && !indexed) errs.push({ type: 'FieldValueInvalid', field: `${path}.successPolicy`, value: s.successPolicy, detail: 'requires indexed completion mode' });
  if (s.podReplacementPolicy !== undefined) {
    if (!['Failed', 'TerminatingOrFailed'].includes(s.podReplacementPolicy)) errs.push(notSupported(`${path}.podReplacementPolicy`, s.podReplacementPolicy, ['Failed', 'TerminatingOrFailed']));
    else if (s.podFailurePolicy !== undefined && s.podReplacementPolicy !== 'Failed') {
      errs.push({ type: 'FieldValueNotSupported', field: `${path}.podReplacementPolicy`, value: s.podReplacementPolicy, detail: 'supported values: "Failed"' });
    }
  }
  const t: Obj = isObject(s.template) ? s.template : {};
  if (!isObject(s.template)) errs.push({ type: 'FieldValueRequired', field: `${path}.template` });
  else errs.push(...validatePodSpec(t.spec, `${path}.template.spec`, ['Always', 'OnFailure', 'Never']).filter(e => !e.field.endsWith('.restartPolicy')));
  const rp = t.spec?.restartPolicy;
  if (rp === 'Always' || rp === undefined || rp === '') {
    errs.push({ type: 'FieldValueRequired', field: `${path}.template.spec.restartPolicy`, detail: 'valid values: "OnFailure", "Never"' });
  } else if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(notSupported(`${path}.template.spec.restartPolicy`, rp, ['OnFailure', 'Never']));
  } else if (s.podFailurePolicy !== undefined && rp !== 'Never') {
    errs.push({ type: 'FieldValueInvalid', field: `${path}.template.spec.restartPolicy`, value: rp, detail: 'only "Never" is supported when podFailurePolicy is specified' });
  }
  return errs;
}

export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const legacyControllerUidLabel = 'controller-uid';
export const legacyJobNameLabel = 'job-name';

/**
 * The selector and template labels Kubernetes generates for a Job without manualSelector:
 * pods carry the job's uid and name, and the selector picks the uid. The job's own labels,
 * when it has none, are the template's (the defaulting shares that map).
 */
export function generateJobSelector(job: KubeObject): void {
  const spec = (job.spec ??= {}) as Obj;
  if (spec.manualSelector === true) return;
  const template = (spec.template ??= {}) as Obj;
  const meta = (template.metadata ??= {}) as Obj;
  const labels = (meta.labels ??= {}) as Record<string, string>;
  const uid = String(job.metadata.uid ?? '');
  const name = String(job.metadata.name ?? '');
  labels[legacyJobNameLabel] ??= name;
  labels[legacyControllerUidLabel] ??= uid;
  labels[jobNameLabel] ??= name;
  labels[controllerUidLabel] ??= uid;
  const selector = (spec.selector ??= {}) as Obj;
  const matchLabels = (selector.matchLabels ??= {}) as Record<string, string>;
  matchLabels[controllerUidLabel] ??= uid;
  if (!job.metadata.labels || Object.keys(job.metadata.labels).length === 0) job.metadata.labels = { ...labels };
}

function hasLabel(labels: Record<string, string>, key: string, want: string): FieldError[] {
  const field = `spec.template.metadata.labels[${key}]`;
  if (!(key in labels)) return [{ type: 'FieldValueRequired', field, detail: `must be '${want}'` }];
  if (labels[key] !== want) return [{ type: 'FieldValueInvalid', field, value: labels, detail: `must be '${want}'` }];
  return [];
}

export function validateJob(job: KubeObject): FieldError[] {
  const s: Obj = isObject(job.spec) ? job.spec : {};
  const errs = jobSpecErrors(s, 'spec');
  const labels = (s.template?.metadata?.labels ?? {}) as Record<string, string>;
  if (!isObject(s.selector)) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector' });
  } else {
    let sel;
    try { sel = labelSelectorFromObject(s.selector); } catch (err) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', value: s.selector, detail: (err as Error).message });
    }
    if (sel && !matchesLabels(sel, labels)) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', value: labels, detail: '`selector` does not match template `labels`' });
    }
    if (sel && s.manualSelector !== true) {
      const uid = String(job.metadata.uid ?? ''), name = String(job.metadata.name ?? '');
      for (const [k, v] of [[legacyControllerUidLabel, uid], [legacyJobNameLabel, name], [controllerUidLabel, uid], [jobNameLabel, name]] as const) errs.push(...hasLabel(labels, k, v));
      if (!matchesLabels(sel, { [controllerUidLabel]: uid, [jobNameLabel]: name, [legacyControllerUidLabel]: uid, [legacyJobNameLabel]: name })) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.selector', value: s.selector, detail: '`selector` not auto-generated' });
      }
    }
  }
  if (s.completionMode === 'Indexed' && typeof s.completions === 'number' && s.completions > 0) {
    // indexed pods are named for their index, as hostnames: the last must be a DNS label
    const host = `${job.metadata.name}-${s.completions - 1}`;
    if (dns1123Label(host).length) errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: job.metadata.name, detail: `will not able to create pod with invalid DNS label: ${host}` });
  }
  return errs;
}

/** fields of a Job's spec that never change, and the template unless the job is suspended */
export function validateJobUpdate(job: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateJob(job);
  const s: Obj = isObject(job.spec) ? job.spec : {};
  const o: Obj = isObject(old.spec) ? old.spec : {};
  for (const f of ['selector', 'completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'manualSelector', 'managedBy']) {
    if (!jsonEqual(s[f], o[f])) errs.push(immutableField(`spec.${f}`, s[f]));
  }
  if (!jsonEqual(s.completions, o.completions)) {
    // elastic Indexed jobs: completions may move in tandem with parallelism
    if (s.completionMode !== 'Indexed') errs.push(immutableField('spec.completions', s.completions));
    else if (s.completions !== s.parallelism) errs.push({ type: 'FieldValueInvalid', field: 'spec.completions', value: s.completions, detail: 'can only be modified in tandem with spec.parallelism' });
  }
  if (!jsonEqual(s.template, o.template) && !(o.suspend === true && s.suspend === true)) errs.push(immutableField('spec.template', s.template));
  return errs;
}
