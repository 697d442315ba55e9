// The policy status kube-apiserver's type checking writes: once per generation, every
// expression is checked against the schema of each kind the policy's resource rules name
// (wildcards name none), and what does not check is an expression warning under
// status.typeChecking (`apps/v1, Kind=Deployment: ERROR: <input>:1:13: undefined field ...`).
// orch's check covers field paths from `object` and `oldObject` (see schema/cel/field-check.ts).

import type { KubeObject } from '../../../../api/object.ts';
import type { Logger } from '../../../../api/log.ts';
import type { Registry } from '../../../../registry/registry.ts';
import { schemaNode, type SchemaNode } from '../../../../schema/schema-walker.ts';
import type { Catalog } from '../../../../schema/types.ts';
import type { NamedRule } from './match-resources.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';

export interface ExpressionWarning { fieldRef: string; warning: string }

interface Kind { gvk: string; node: SchemaNode }

/** the kinds the policy's rules name exactly, with their schemas */
function matchedKinds(policy: KubeObject, catalog: Catalog): Kind[] {
  const rules = ((policy.spec as { matchConstraints?: { resourceRules?: NamedRule[] } } | undefined)?.matchConstraints?.resourceRules) ?? [];
  const out = new Map<string, Kind>();
  for (const r of rules) {
    for (const g of r.apiGroups ?? []) for (const v of r.apiVersions ?? []) for (const res of r.resources ?? []) {
      if (g === '*' || v === '*' || res.includes('*') || res.includes('/')) continue;
      const info = catalog.lookup(g, v, res);
      const node = info && schemaNode(info.definition);
      if (!info || !node) continue;
      const gvk = `${g}/${v}, Kind=${info.kind}`;
      out.set(gvk, { gvk, node });
    }
  }
  return [...out.values()];
}

/** the expressions kube-apiserver type-checks, by field path */
function expressions(policy: KubeObject): Array<[string, string]> {
  const spec = (policy.spec ?? {}) as Record<string, Array<Record<string, unknown>> | undefined>;
  const out: Array<[string, string]> = [];
  const add = (field: string, e: unknown) => { if (typeof e === 'string' && e) out.push([field, e]); };
  (spec.validations ?? []).forEach((v, i) => { add(`spec.validations[${i}].expression`, v.expression); add(`spec.validations[${i}].messageExpression`, v.messageExpression); });
  (spec.auditAnnotations ?? []).forEach((a, i) => add(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression));
  (spec.matchConditions ?? []).forEach((c, i) => add(`spec.matchConditions[${i}].expression`, c.expression));
  (spec.variables ?? []).forEach((v, i) => add(`spec.variables[${i}].expression`, v.expression));
  return out;
}

export function typeCheck(policy: KubeObject, catalog: Catalog): ExpressionWarning[] {
  const kinds = matchedKinds(policy, catalog);
  const warnings: ExpressionWarning[] = [];
  for (const [fieldRef, expression] of expressions(policy)) {
    const parts = kinds.flatMap(k => {
      const problems = cel().undefinedFields(expression, new Map([['object', k.node], ['oldObject', k.node]]));
      return problems.length ? [`${k.gvk}: ${problems.map(p => cel().renderProblem(expression, p)).join('\n')}`] : [];
    });
    if (parts.length) warnings.push({ fieldRef, warning: parts.join('\n') });
  }
  return warnings;
}

/** writes status.typeChecking and observedGeneration when the policy's generation is new to it */
export function recordTypeChecking(policy: KubeObject, registry: Registry, catalog: Catalog, log?: Logger): void {
  const generation = policy.metadata.generation as number | undefined;
  const status = policy.status as { observedGeneration?: number } | undefined;
  const info = catalog.lookup('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies');
  if (!info || generation === undefined || status?.observedGeneration === generation) return;
  const expressionWarnings = typeCheck(policy, catalog);
  registry.modify(info, undefined, policy.metadata.name!, current => {
    if (current.metadata.generation !== generation) return current; // a newer spec gets its own pass
    return { ...current, status: { ...(current.status as object ?? {}), observedGeneration: generation, typeChecking: expressionWarnings.length ? { expressionWarnings } : {} } };
  }, { subresource: 'status' }).catch(err => log?.warn('policy type checking status not written', { policy: policy.metadata.name, err: (err as Error).message }));
}
