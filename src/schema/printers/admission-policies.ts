// Printers for admission policies and their bindings, with kube-apiserver's columns: a policy's
// number of validations (or mutations) and its paramKind, a binding's policy and paramRef
// (`namespace/name`, `*/name` when no namespace is given, a selector as Go prints the struct).

import type { AdmissionregistrationV1MutatingAdmissionPolicy, AdmissionregistrationV1MutatingAdmissionPolicyBinding, AdmissionregistrationV1ValidatingAdmissionPolicy, AdmissionregistrationV1ValidatingAdmissionPolicyBinding, MetaV1LabelSelector as LabelSelector } from '../generated/types.ts';
import type { Of, Printer } from './types.ts';
import { ageColumn, col, nameColumn } from './types.ts';
import { list, nameOf, objAge, spec } from './format.ts';

function paramKind(k: { apiVersion?: string; kind?: string } | undefined): string {
  return k ? `${k.apiVersion ?? ''}/${k.kind ?? ''}` : '<unset>';
}

/** a LabelSelector as Go's generated String() writes it */
function goSelector(s: LabelSelector): string {
  const labels = Object.keys(s.matchLabels ?? {}).sort().map(k => `${k}: ${s.matchLabels![k]},`).join('');
  const exprs = list(s.matchExpressions).map(e => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${list(e.values).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

function paramRef(r: { name?: string; namespace?: string; selector?: LabelSelector } | undefined): string {
  if (!r) return '<unset>';
  if (r.name) return r.namespace ? `${r.namespace}/${r.name}` : `*/${r.name}`;
  return r.selector ? goSelector(r.selector) : '<unset>';
}

export const validatingAdmissionPolicyPrinter: Printer<Of<AdmissionregistrationV1ValidatingAdmissionPolicy>> = {
  columns: [nameColumn(), col('Validations', 'integer'), col('ParamKind'), ageColumn()],
  cells: (p, now) => [nameOf(p), list(spec(p).validations).length, paramKind(spec(p).paramKind), objAge(p, now)],
};

export const mutatingAdmissionPolicyPrinter: Printer<Of<AdmissionregistrationV1MutatingAdmissionPolicy>> = {
  columns: [nameColumn(), col('Mutations', 'integer'), col('ParamKind'), ageColumn()],
  cells: (p, now) => [nameOf(p), list(spec(p).mutations).length, paramKind(spec(p).paramKind), objAge(p, now)],
};

export const admissionPolicyBindingPrinter: Printer<Of<AdmissionregistrationV1ValidatingAdmissionPolicyBinding> | Of<AdmissionregistrationV1MutatingAdmissionPolicyBinding>> = {
  columns: [nameColumn(), col('PolicyName'), col('ParamRef'), ageColumn()],
  cells: (b, now) => [nameOf(b), spec(b).policyName ?? '', paramRef(spec(b).paramRef), objAge(b, now)],
};
