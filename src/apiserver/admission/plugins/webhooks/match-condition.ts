// matchConditions in CEL: one expression, the variables kube-apiserver binds for a webhook
// (`object`, `oldObject`, `request`, `authorizer`), a boolean out, compiled and evaluated in
// orch's one Kubernetes CEL environment (schema/cel), as CRD rules and admission policies are.

import { compileCel, isCelError } from '../../../../schema/cel/compile.ts';
import { withAuthorizer, type CelAuthorizer, type RequestResource } from '../../../../schema/cel/authorizer.ts';
import { toCelInput } from '../../../../schema/cel/values.ts';

export interface MatchConditionVariables {
  object: unknown;
  oldObject: unknown;
  /** the AdmissionRequest as the webhook would receive it, without object and oldObject */
  request: unknown;
  authorizer?: CelAuthorizer;
  /** what `authorizer.requestResource` checks: the request's own resource */
  requestResource?: RequestResource;
}

export type MatchConditionProgram = (vars: MatchConditionVariables) => boolean | Error;

const variables = ['object', 'oldObject', 'request', 'authorizer'];

/** Go's CEL names a missing map key this way; bufbuild/cel says "field not found" */
function goWording(message: string): string {
  return message.replace(/^field not found: /, 'no such key: ');
}

/** the expression compiled once; an Error with Kubernetes' "compilation failed: ..." when it does not compile */
export function compileMatchCondition(expression: string): MatchConditionProgram | Error {
  let program: ReturnType<typeof compileCel>;
  try {
    program = compileCel(expression, variables);
  } catch (err) {
    return new Error(`compilation failed: ${(err as Error).message}`);
  }
  return vars => {
    const bindings = (authorizer: unknown) => program.run({
      object: toCelInput(vars.object),
      oldObject: toCelInput(vars.oldObject),
      request: toCelInput(vars.request),
      authorizer: authorizer ?? null,
    });
    const out = vars.authorizer ? withAuthorizer(vars.authorizer, vars.requestResource, bindings) : bindings(undefined);
    if (isCelError(out)) return new Error(`expression '${expression}' resulted in error: ${goWording(out.message)}`);
    if (typeof out !== 'boolean') return new Error(`expression '${expression}' resulted in error: no such overload`);
    return out;
  };
}
