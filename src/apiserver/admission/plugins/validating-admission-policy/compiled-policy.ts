// A ValidatingAdmissionPolicy with every expression compiled once, when the policy is read from
// the watch. An expression that does not compile is kept with its error: Kubernetes reports it
// when the policy is evaluated ("compilation error: compilation failed: ERROR: ..."), through
// the policy's failurePolicy.

import type { CompiledExpression } from '../../../../schema/cel/compile.ts';
import type { KubeObject } from '../../../../api/object.ts';
import type { MatchResources } from './match-resources.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';

export interface Compiled { expression: string; program?: CompiledExpression; error?: string }

export interface CompiledPolicy extends PolicyBasics {
  validations: Array<{ check: Compiled; message?: string; messageExpression?: Compiled; reason?: string }>;
  auditAnnotations: Array<{ key: string; value: Compiled }>;
}

/** `objectConstruction`: a mutation's `Object{...}` / `JSONPatch{...}` read as maps */
export function compileExpression(expression: string, opts: { objectConstruction?: boolean } = {}): Compiled {
  try {
    return { expression, program: cel().compileCel(expression, cel().admissionPolicyVariables, opts) };
  } catch (err) {
    return { expression, error: `compilation failed: ${(err as Error).message}` };
  }
}

/** what validating and mutating policies share */
export interface PolicyBasics {
  name: string;
  failurePolicy: string;
  matchConstraints?: MatchResources;
  paramKind?: { apiVersion?: string; kind?: string };
  matchConditions: Array<Compiled & { name: string }>;
  variables: Array<Compiled & { name: string }>;
}

interface BasicsSpec {
  failurePolicy?: string; matchConstraints?: MatchResources; paramKind?: PolicyBasics['paramKind'];
  matchConditions?: Array<{ name?: string; expression?: string }>;
  variables?: Array<{ name?: string; expression?: string }>;
}

export function compilePolicyBasics(obj: KubeObject): PolicyBasics {
  const spec = (obj.spec ?? {}) as BasicsSpec;
  return {
    name: obj.metadata.name ?? '',
    failurePolicy: spec.failurePolicy ?? 'Fail',
    matchConstraints: spec.matchConstraints,
    paramKind: spec.paramKind,
    matchConditions: (spec.matchConditions ?? []).map(c => ({ name: c.name ?? '', ...compileExpression(c.expression ?? '') })),
    variables: (spec.variables ?? []).map(v => ({ name: v.name ?? '', ...compileExpression(v.expression ?? '') })),
  };
}

type Spec = {
  validations?: Array<{ expression?: string; message?: string; messageExpression?: string; reason?: string }>;
  auditAnnotations?: Array<{ key?: string; valueExpression?: string }>;
};

export function compilePolicy(obj: KubeObject): CompiledPolicy {
  const spec = (obj.spec ?? {}) as Spec;
  return {
    ...compilePolicyBasics(obj),
    validations: (spec.validations ?? []).map(v => ({
      check: compileExpression(v.expression ?? ''),
      message: v.message,
      messageExpression: v.messageExpression ? compileExpression(v.messageExpression) : undefined,
      reason: v.reason,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map(a => ({ key: a.key ?? '', value: compileExpression(a.valueExpression ?? '') })),
  };
}
