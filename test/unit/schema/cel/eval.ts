// Evaluates one expression in the Kubernetes CEL environment for the library tests: the value
// as JSON-like data, or { error } with the evaluation's message.

import { compileCel, isCelError } from '../../../../src/schema/cel/compile.ts';
import { fromCelValue, toCelInput } from '../../../../src/schema/cel/values.ts';
import { withAuthorizer, type CelAuthorizer, type RequestResource } from '../../../../src/schema/cel/authorizer.ts';

export function evaluate(expression: string, vars: Record<string, unknown> = {}, authorizer?: CelAuthorizer, request?: RequestResource): unknown {
  const c = compileCel(expression, [...Object.keys(vars), ...(authorizer ? ['authorizer'] : [])]);
  const bindings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(vars)) bindings[k] = toCelInput(v);
  const go = (auth?: unknown) => c.run(auth ? { ...bindings, authorizer: auth } : bindings);
  const r = authorizer ? withAuthorizer(authorizer, request, go) : go();
  return isCelError(r) ? { error: r.message } : fromCelValue(r);
}
