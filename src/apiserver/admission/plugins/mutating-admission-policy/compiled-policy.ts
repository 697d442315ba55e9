// A MutatingAdmissionPolicy with its expressions compiled once per change: the shared parts
// (matchConditions, variables) as a validating policy has them, and each mutation's expression
// compiled with typed object construction (`Object{...}`, `JSONPatch{...}`) read as maps.

import type { KubeObject } from '../../../../api/object.ts';
import { compileExpression, type Compiled } from '../validating-admission-policy/compiled-policy.ts';
import type { MatchResources } from '../validating-admission-policy/match-resources.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';

export interface Mutation { patchType: string; expression: Compiled }

export interface CompiledMutatingPolicy {
  name: string;
  failurePolicy: string;
  matchConstraints?: MatchResources;
  paramKind?: { apiVersion?: string; kind?: string };
  matchConditions: Array<Compiled & { name: string }>;
  variables: Array<Compiled & { name: string }>;
  mutations: Mutation[];
}

function compileMutation(expression: string): Compiled {
  try {
    return { expression, program: cel().compileCel(expression, cel().admissionPolicyVariables, { objectConstruction: true }) };
  } catch (err) {
    return { expression, error: `compilation failed: ${err instanceof cel().CelCompileError ? err.message : (err as Error).message}` };
  }
}

type Spec = {
  failurePolicy?: string; matchConstraints?: MatchResources; paramKind?: CompiledMutatingPolicy['paramKind'];
  matchConditions?: Array<{ name?: string; expression?: string }>;
  variables?: Array<{ name?: string; expression?: string }>;
  mutations?: Array<{ patchType?: string; applyConfiguration?: { expression?: string }; jsonPatch?: { expression?: string } }>;
};

export function compileMutatingPolicy(obj: KubeObject): CompiledMutatingPolicy {
  const spec = (obj.spec ?? {}) as Spec;
  return {
    name: obj.metadata.name ?? '',
    failurePolicy: spec.failurePolicy ?? 'Fail',
    matchConstraints: spec.matchConstraints,
    paramKind: spec.paramKind,
    matchConditions: (spec.matchConditions ?? []).map(c => ({ name: c.name ?? '', ...compileExpression(c.expression ?? '') })),
    variables: (spec.variables ?? []).map(v => ({ name: v.name ?? '', ...compileExpression(v.expression ?? '') })),
    mutations: (spec.mutations ?? []).map(m => ({
      patchType: m.patchType ?? '',
      expression: compileMutation((m.patchType === 'JSONPatch' ? m.jsonPatch?.expression : m.applyConfiguration?.expression) ?? ''),
    })),
  };
}
