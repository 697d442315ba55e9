// The field error of a rule that evaluated to false, and the evaluation of its messageExpression,
// in apiextensions-apiserver's words. Objects and lists are not printed as the bad value (since
// Kubernetes 1.35 their value is omitted); scalars are.

import { isCelError, type CelInput } from '@bufbuild/cel';
import type { FieldError } from '../../../api/status.ts';
import type { CompiledExpression } from '../compile.ts';
import { metered } from './cost.ts';
import { maxMessageExpressionBytes, perCallLimit, type RuleSchema } from './schema.ts';

export function ruleFailure(field: string, s: RuleSchema, obj: unknown, detail: string, reason?: string): FieldError {
  const omit = s.type === 'object' || s.type === 'array';
  const value = omit ? undefined : obj;
  switch (reason) {
    case 'FieldValueForbidden': return { type: 'FieldValueForbidden', field, detail };
    case 'FieldValueRequired': return { type: 'FieldValueRequired', field, detail };
    // field.Duplicate carries no detail
    case 'FieldValueDuplicate': return { type: 'FieldValueDuplicate', field, value };
    default: return { type: 'FieldValueInvalid', field, value, detail };
  }
}

export interface MessageResult {
  /** the message to report, when the expression gave a usable one */
  message?: string;
  /** an error that ends validation (cost): reported instead of the rule's error */
  fatal?: string;
  budget: number;
}

/**
 * A messageExpression's message. A failed or unusable one falls back to the rule's message
 * (Kubernetes only logs why); running out of cost ends validation.
 */
export function evalMessageExpression(c: CompiledExpression, src: string, vars: Record<string, CelInput>, budget: number): MessageResult {
  const run = metered(Math.min(perCallLimit, budget), () => c.run(vars));
  if (run.exceeded) {
    return run.cost > budget && budget < perCallLimit
      ? { fatal: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run', budget: -1 }
      : { fatal: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(src)}`, budget: -1 };
  }
  const left = budget - run.cost;
  const r = run.result;
  if (isCelError(r) || typeof r !== 'string') return { budget: left };
  const msg = r.trim();
  if (!msg || msg.includes('\n') || new TextEncoder().encode(msg).length > maxMessageExpressionBytes) return { budget: left };
  return { message: msg, budget: left };
}

/** @bufbuild/cel's evaluation errors in cel-go's words, which Kubernetes puts in its messages */
const goWords: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^field not found: (.*)$/s, m => `no such key: ${m[1]}`],
  [/^int divide by zero$/, () => 'division by zero'],
  [/^int modulus by zero$/, () => 'modulus by zero'],
  [/^(?:int|uint) overflow.*$/, () => 'integer overflow'],
  [/^found no matching overload.*$/s, () => 'no such overload'],
];

export function celGoError(message: string): string {
  for (const [re, word] of goWords) {
    const m = re.exec(message);
    if (m) return word(m);
  }
  return message;
}
