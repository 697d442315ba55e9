// What kube-apiserver refuses in an access review's spec, in its words: exactly one of
// resourceAttributes and nonResourceAttributes (a union, reported on `spec` since declarative
// validation took it over), a subject for the reviews that name one, and the field and label
// selector attributes 1.31 added (raw or parsed, not both; requirements well formed, with
// operators this server does not know let through for newer clients).

import type { FieldError } from '../../api/status.ts';
import { qualifiedNameErrors } from '../../api/label-rules.ts';

interface Requirement { key?: string; operator?: string; values?: string[] }
interface SelectorAttributes { rawSelector?: string; requirements?: Requirement[] }
export interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
  fieldSelector?: SelectorAttributes; labelSelector?: SelectorAttributes;
}
export interface NonResourceAttributes { path?: string; verb?: string }
export interface ReviewSpec {
  resourceAttributes?: ResourceAttributes; nonResourceAttributes?: NonResourceAttributes;
  user?: string; groups?: string[]; uid?: string; extra?: Record<string, string[]>;
}

const union = 'exactly one of nonResourceAttributes or resourceAttributes must be specified';

function selectorErrors(sel: SelectorAttributes | undefined, path: string, label: boolean): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  const reqs = sel.requirements ?? [];
  if (sel.rawSelector && reqs.length) errs.push({ type: 'FieldValueInvalid', field: `${path}.rawSelector`, value: sel.rawSelector, detail: 'may not specified at the same time as requirements' });
  if (!sel.rawSelector && !reqs.length) errs.push({ type: 'FieldValueRequired', field: `${path}.requirements`, detail: `when ${path} is specified, requirements or rawSelector is required` });
  reqs.forEach((r, i) => {
    const at = `${path}.requirements[${i}]`;
    const values = r.values ?? [];
    if (!label && !r.key) errs.push({ type: 'FieldValueRequired', field: `${at}.key`, detail: 'must be specified' });
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (label ? values.length === 0 : values.length !== 1) {
        errs.push({ type: 'FieldValueRequired', field: `${at}.values`, detail: label ? "must be specified when `operator` is 'In' or 'NotIn'" : "must be specified single value when `operator` is 'In' or 'NotIn'" });
      }
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length) errs.push({ type: 'FieldValueForbidden', field: `${at}.values`, detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
    }
    if (label) for (const msg of qualifiedNameErrors(r.key ?? '')) errs.push({ type: 'FieldValueInvalid', field: `${at}.key`, value: r.key ?? '', detail: msg });
  });
  return errs;
}

/** SubjectAccessReview and SelfSubjectAccessReview (`subject`: the former, which names one) */
export function reviewSpecErrors(spec: ReviewSpec, subject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.resourceAttributes === !spec.nonResourceAttributes) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec', value: spec.nonResourceAttributes ?? null, detail: union });
  }
  if (subject && !spec.user && !spec.groups?.length) errs.push({ type: 'FieldValueInvalid', field: 'spec.user', value: spec.user ?? '', detail: 'at least one of user or group must be specified' });
  const r = spec.resourceAttributes;
  if (r) errs.push(...selectorErrors(r.fieldSelector, 'spec.resourceAttributes.fieldSelector', false), ...selectorErrors(r.labelSelector, 'spec.resourceAttributes.labelSelector', true));
  return errs;
}

/** LocalSubjectAccessReview: the above, its namespace the one its resource attributes name, no paths */
export function localReviewSpecErrors(spec: ReviewSpec, namespace: string): FieldError[] {
  const errs = reviewSpecErrors(spec, true);
  const ns = spec.resourceAttributes ? spec.resourceAttributes.namespace ?? '' : undefined;
  if (ns !== undefined && ns !== namespace) errs.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', value: ns, detail: 'must match metadata.namespace' });
  if (spec.nonResourceAttributes) errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', value: spec.nonResourceAttributes, detail: 'disallowed on this kind of request' });
  return errs;
}
