// A MutatingAdmissionPolicy with its expressions compiled once per change: the shared parts
// (matchConditions, variables) as a validating policy has them, and each mutation's expression
// compiled with typed object construction (`Object{...}`, `JSONPatch{...}`) read as maps.

import type { KubeObject } from '../../../../api/object.ts';
import { compileExpression, compilePolicyBasics, type Compiled, type PolicyBasics } from '../validating-admission-policy/compiled-policy.ts';

export interface Mutation { patchType: string; expression: Compiled }

export interface CompiledMutatingPolicy extends PolicyBasics {
  mutations: Mutation[];
  /** 'IfNeeded': called again when something after it changed the object */
  reinvocationPolicy: string;
}

type Spec = {
  mutations?: Array<{ patchType?: string; applyConfiguration?: { expression?: string }; jsonPatch?: { expression?: string } }>;
  reinvocationPolicy?: string;
};

export function compileMutatingPolicy(obj: KubeObject): CompiledMutatingPolicy {
  const spec = (obj.spec ?? {}) as Spec;
  return {
    ...compilePolicyBasics(obj),
    reinvocationPolicy: spec.reinvocationPolicy ?? 'Never',
    mutations: (spec.mutations ?? []).map(m => ({
      patchType: m.patchType ?? '',
      expression: compileExpression((m.patchType === 'JSONPatch' ? m.jsonPatch?.expression : m.applyConfiguration?.expression) ?? '', { objectConstruction: true }),
    })),
  };
}
