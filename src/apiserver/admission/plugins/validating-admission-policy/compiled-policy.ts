// A ValidatingAdmissionPolicy with every expression compiled once, when the policy is read from
// the watch. An expression that does not compile is kept with its error: Kubernetes reports it
// when the policy is evaluated ("compilation error: compilation failed: ERROR: ..."), through
// the policy's failurePolicy.

import type { CompiledExpression } from '../../../../schema/cel/compile.ts';
import type { KubeObject } from '../../../../api/object.ts';
import type { MatchResources } from './match-resources.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';


export interface Compiled { expression: string; program?: CompiledExpression; error?: string }

export interface CompiledPolicy {
  name: string;
  failurePolicy: string;
  matchConstraints?: MatchResources;
  paramKind?: { apiVersion?: string; kind?: string };
  matchConditions: Array<Compiled & { name: string }>;
  variables: Array<Compiled & { name: string }>;
  validations: Array<{ check: Compiled; message?: string; messageExpression?: Compiled; reason?: string }>;
  auditAnnotations: Array<{ key: string; value: Compiled }>;
}

export function compileExpression(expression: string): Compiled {
  try {
    return { expression, program: cel().compileCel(expression, cel().admissionPolicyVariables) };
  } catch (err) {
    if (err instanceof cel().CelCompileError) return { expression, error: `compilation failed: ${err.message}` };
    return { expression, error: `compilation failed: ${(err as Error).message}` };
  }
}

type Spec = {
  failurePolicy?: string; matchConstraints?: MatchResources; paramKind?: CompiledPolicy['paramKind'];
  matchConditions?: Array<{ name?: string; expression?: string }>;
  variables?: Array<{ name?: string; expression?: string }>;
  validations?: Array<{ expression?: string; message?: string; messageExpression?: string; reason?: string }>;
  auditAnnotations?: Array<{ key?: string; valueExpression?: string }>;
};

export function compilePolicy(obj: KubeObject): CompiledPolicy {
  const spec = (obj.spec ?? {}) as Spec;
  return {
    name: obj.metadata.name ?? '',
    failurePolicy: spec.failurePolicy ?? 'Fail',
    matchConstraints: spec.matchConstraints,
    paramKind: spec.paramKind,
    matchConditions: (spec.matchConditions ?? []).map(c => ({ name: c.name ?? '', ...compileExpression(c.expression ?? '') })),
    variables: (spec.variables ?? []).map(v => ({ name: v.name ?? '', ...compileExpression(v.expression ?? '') })),
    validations: (spec.validations ?? []).map(v => ({
      check: compileExpression(v.expression ?? ''),
      message: v.message,
      messageExpression: v.messageExpression ? compileExpression(v.messageExpression) : undefined,
      reason: v.reason,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map(a => ({ key: a.key ?? '', value: compileExpression(a.valueExpression ?? '') })),
  };
}
