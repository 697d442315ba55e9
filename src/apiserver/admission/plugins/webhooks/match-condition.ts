// matchConditions in CEL: one expression, the variables kube-apiserver binds for a webhook
// (`object`, `oldObject`, `request`, `authorizer`), a boolean out. Everything CEL-specific of
// the webhooks sits in this file, so that it can move to the shared Kubernetes CEL environment
// (the one of CRD validation rules and admission policies) by changing this file alone.

import { celEnv, CelScalar, isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { authorizerFuncs, authorizerValue, withAuthorizer, type CelAuthorizer } from './cel-authorizer.ts';

export interface MatchConditionVariables {
  object: unknown;
  oldObject: unknown;
  /** the AdmissionRequest as the webhook would receive it, without object and oldObject */
  request: unknown;
  authorizer?: CelAuthorizer;
}

export type MatchConditionProgram = (vars: MatchConditionVariables) => boolean | Error;

const env = celEnv({
  variables: { object: CelScalar.DYN, oldObject: CelScalar.DYN, request: CelScalar.DYN, authorizer: CelScalar.DYN },
  funcs: authorizerFuncs,
});

/** JSON as CEL values: objects as maps, whole numbers as int (Kubernetes' integers), the rest as is */
export function toCel(v: unknown): CelInput {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(toCel);
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'object') return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
  return v as CelInput;
}

/** Go's CEL names a missing map key this way; bufbuild/cel says "field not found" */
function goWording(message: string): string {
  return message.replace(/^field not found: /, 'no such key: ');
}

/** the expression parsed and planned once; an Error when it does not compile */
export function compileMatchCondition(expression: string): MatchConditionProgram | Error {
  let run: (bindings: Record<string, CelInput>) => unknown;
  try {
    run = plan(env, parse(expression)) as typeof run;
  } catch (err) {
    return new Error(`compilation failed: ${(err as Error).message}`);
  }
  return vars => {
    const out = withAuthorizer(vars.authorizer, () => run({
      object: toCel(vars.object),
      oldObject: toCel(vars.oldObject),
      request: toCel(vars.request),
      authorizer: vars.authorizer ? authorizerValue() : null,
    }));
    if (isCelError(out)) return new Error(`expression '${expression}' resulted in error: ${goWording(out.message)}`);
    if (typeof out !== 'boolean') return new Error(`expression '${expression}' resulted in error: no such overload`);
    return out;
  };
}
