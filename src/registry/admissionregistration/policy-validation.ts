// Validation of admission policies and their bindings on write, as kube-apiserver's
// ValidateValidatingAdmissionPolicy checks them: every CEL expression must compile in the
// admission environment (`spec.validations[0].expression: Invalid value: "...": compilation
// failed: ERROR: ...`), a policy needs validations or audit annotations, a binding a policy name
// and validation actions.

import type { FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { cel } from '../../schema/cel/on-demand.ts';

/** `mutation`: a MutatingAdmissionPolicy's mutation, which may build typed objects (Object{...}) */
function compileErrors(field: string, expression: unknown, mutation = false): FieldError[] {
  if (typeof expression !== 'string' || expression === '') return [{ type: 'FieldValueRequired', field }];
  try {
    cel().compileCel(expression, cel().admissionPolicyVariables, { objectConstruction: mutation });
    return [];
  } catch (err) {
    if (!(err instanceof cel().CelCompileError)) throw err;
    return [{ type: 'FieldValueInvalid', field, value: expression, detail: `compilation failed: ${err.message}` }];
  }
}

type Items = Array<Record<string, unknown>> | undefined;

function each(list: unknown, field: string, check: (item: Record<string, unknown>, path: string) => FieldError[]): FieldError[] {
  return ((list ?? []) as NonNullable<Items>).flatMap((item, i) => check(item ?? {}, `${field}[${i}]`));
}

/** the expressions every admission policy kind shares */
function commonErrors(spec: Record<string, unknown>): FieldError[] {
  return [
    ...each(spec.matchConditions, 'spec.matchConditions', (c, p) => compileErrors(`${p}.expression`, c.expression)),
    ...each(spec.variables, 'spec.variables', (v, p) => compileErrors(`${p}.expression`, v.expression)),
  ];
}

export function validateValidatingPolicy(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const errors = commonErrors(spec);
  const validations = (spec.validations ?? []) as unknown[];
  const annotations = (spec.auditAnnotations ?? []) as unknown[];
  if (!validations.length && !annotations.length) {
    errors.push({ type: 'FieldValueRequired', field: 'spec.validations', detail: 'validations or auditAnnotations must contain at least one item' });
  }
  errors.push(...each(spec.validations, 'spec.validations', (v, p) => [
    ...compileErrors(`${p}.expression`, v.expression),
    ...(v.messageExpression !== undefined ? compileErrors(`${p}.messageExpression`, v.messageExpression) : []),
  ]));
  errors.push(...each(spec.auditAnnotations, 'spec.auditAnnotations', (a, p) => compileErrors(`${p}.valueExpression`, a.valueExpression)));
  return errors;
}

export function validateMutatingPolicy(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  return [
    ...commonErrors(spec),
    ...each(spec.mutations, 'spec.mutations', (m, p) => {
      const apply = m.applyConfiguration as Record<string, unknown> | undefined;
      const patch = m.jsonPatch as Record<string, unknown> | undefined;
      if (m.patchType === 'ApplyConfiguration' && apply) return compileErrors(`${p}.applyConfiguration.expression`, apply.expression, true);
      if (m.patchType === 'JSONPatch' && patch) return compileErrors(`${p}.jsonPatch.expression`, patch.expression, true);
      return [];
    }),
  ];
}

export function validatePolicyBinding(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (!spec.policyName) errors.push({ type: 'FieldValueRequired', field: 'spec.policyName' });
  if (obj.kind === 'ValidatingAdmissionPolicyBinding') {
    const actions = (spec.validationActions ?? []) as string[];
    if (!actions.length) errors.push({ type: 'FieldValueRequired', field: 'spec.validationActions', detail: 'at least one validation action is required' });
    actions.forEach((a, i) => {
      if (!['Deny', 'Warn', 'Audit'].includes(a)) errors.push({ type: 'FieldValueNotSupported', field: `spec.validationActions[${i}]`, value: a, detail: 'supported values: "Audit", "Deny", "Warn"' });
      else if (actions.indexOf(a) < i) errors.push({ type: 'FieldValueDuplicate', field: `spec.validationActions[${i}]`, value: a });
    });
    // the same failure in the response and in its warnings says nothing new
    if (actions.includes('Deny') && actions.includes('Warn')) {
      errors.push({ type: 'FieldValueInvalid', field: 'spec.validationActions', value: actions, detail: 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)' });
    }
  }
  return errors;
}
