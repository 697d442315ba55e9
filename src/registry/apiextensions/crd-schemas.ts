// The schema part of a CustomResourceDefinition's validation: each version's openAPIV3Schema
// must use only what Kubernetes supports and be structural, else the CRD is refused with
// kube-apiserver's field errors (spec.versions[i].schema.openAPIV3Schema...). Versions without
// a schema are left alone here (v1 requires one; that check belongs with the rest of the
// CRD's spec validation). The x-kubernetes-validations rules of a structural schema are compiled
// too (CEL loads only for a schema that has rules), their errors placed as Kubernetes places them;
// on update, a version whose schema did not change is not refused for one rule's estimated cost
// (limits may have tightened since it was written), only for the schema's total.

import { jsonEqual, type KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { crdSchemaErrors, type JSONSchemaProps } from '../../schema/structural/index.ts';
import { cel } from '../../schema/cel/on-demand.ts';
import type { RuleSchema } from '../../schema/cel/index.ts';

/** whether a schema declares CEL rules anywhere */
export const hasCelRules = (schema: unknown) => JSON.stringify(schema).includes('"x-kubernetes-validations"');

interface CrdVersion {
  name?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: unknown };
}

const versionsOf = (crd: KubeObject | undefined) => (crd as { spec?: { versions?: CrdVersion[] } } | undefined)?.spec?.versions ?? [];

/** field errors of every version's schema of a CRD; `old` on update */
export function validateCrdSchemas(crd: KubeObject, old?: KubeObject): FieldError[] {
  const spec = (crd as { spec?: { versions?: CrdVersion[] } }).spec;
  const errs: FieldError[] = [];
  const unchanged = (v: CrdVersion) => old !== undefined && versionsOf(old).some(o => o?.name === v.name && jsonEqual(o?.schema, v.schema));
  (spec?.versions ?? []).forEach((v, i) => {
    const schema = v?.schema?.openAPIV3Schema;
    if (!schema || typeof schema !== 'object') return;
    const schemaErrs = crdSchemaErrors(schema, `spec.versions[${i}].schema`, { statusSubresource: v.subresources?.status != null });
    errs.push(...schemaErrs);
    if (!schemaErrs.length && hasCelRules(schema)) errs.push(...cel().compileCelRules(schema as RuleSchema, `spec.versions[${i}].schema.openAPIV3Schema`, { suppressPerExpressionCost: unchanged(v) }));
  });
  return errs;
}
