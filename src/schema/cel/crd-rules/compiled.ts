// Compiling the `x-kubernetes-validations` of one schema node once: each rule and its
// messageExpression, with `self` and `oldSelf` declared, on the metered environment; whether the
// rule reads oldSelf (a transition rule); and its fieldPath normalized. Cached per schema node.

import { CelCompileError, compileCel, type CelExpr, type CompiledExpression } from '../compile.ts';
import { addIterationTicks, meteredEnv } from './cost.ts';
import { normalizeFieldPath } from './field-path.ts';
import type { RuleSchema, ValidationRule } from './schema.ts';

export interface CompiledRule {
  rule: ValidationRule;
  program?: CompiledExpression;
  /** what Kubernetes puts after the rule's path: "compilation failed: ERROR: …" */
  error?: string;
  message?: CompiledExpression;
  messageError?: string;
  usesOldSelf: boolean;
  /** the fieldPath as errors print it, relative to the node */
  fieldPath?: string;
}

function readsOldSelf(e: CelExpr | undefined, shadowed: ReadonlySet<string> = new Set()): boolean {
  if (!e) return false;
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr': return k.value.name === 'oldSelf' && !shadowed.has('oldSelf');
    case 'selectExpr': return readsOldSelf(k.value.operand, shadowed);
    case 'callExpr': return readsOldSelf(k.value.target, shadowed) || k.value.args.some(a => readsOldSelf(a, shadowed));
    case 'listExpr': return k.value.elements.some(x => readsOldSelf(x, shadowed));
    case 'structExpr': return k.value.entries.some(en => (en.keyKind.case === 'mapKey' && readsOldSelf(en.keyKind.value, shadowed)) || readsOldSelf(en.value, shadowed));
    case 'comprehensionExpr': {
      const c = k.value;
      const inner = new Set([...shadowed, c.iterVar, c.accuVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
      return readsOldSelf(c.iterRange, shadowed) || readsOldSelf(c.accuInit, shadowed) || [c.loopCondition, c.loopStep, c.result].some(x => readsOldSelf(x, inner));
    }
    default: return false;
  }
}

function compileOne(expression: string, onExpr?: (e: CelExpr) => void): CompiledExpression {
  return compileCel(expression, ['self', 'oldSelf'], {
    env: meteredEnv,
    rewrite: e => { onExpr?.(e); addIterationTicks(e); },
  });
}

function compileRule(schema: RuleSchema, rule: ValidationRule): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false };
  if (!rule.rule?.trim()) return out;
  try {
    out.program = compileOne(rule.rule, e => { out.usesOldSelf = readsOldSelf(e); });
  } catch (err) {
    if (!(err instanceof CelCompileError)) throw err;
    out.error = `compilation failed: ${err.message}`;
    return out;
  }
  if (rule.messageExpression) {
    try {
      out.message = compileOne(rule.messageExpression);
    } catch (err) {
      if (!(err instanceof CelCompileError)) throw err;
      out.messageError = `messageExpression compilation failed: ${err.message}`;
    }
  }
  if (rule.fieldPath) {
    const p = normalizeFieldPath(rule.fieldPath, schema);
    if (typeof p === 'string') out.fieldPath = p;
  }
  return out;
}

const cache = new WeakMap<RuleSchema, CompiledRule[]>();

/** the node's rules compiled (cached while the schema object lives) */
export function compiledRules(schema: RuleSchema): CompiledRule[] {
  let c = cache.get(schema);
  if (!c) {
    c = (schema['x-kubernetes-validations'] ?? []).map(r => compileRule(schema, r));
    cache.set(schema, c);
  }
  return c;
}

/** a ValidationRule as Go's %#v prints apiextensions.ValidationRule (pointers by a stand-in address) */
export function goRule(r: ValidationRule): string {
  const q = (s: string | undefined) => JSON.stringify(s ?? '');
  const ptr = (t: string, set: boolean) => `(*${t})(${set ? '0xc000000000' : 'nil'})`;
  return `apiextensions.ValidationRule{Rule:${q(r.rule)}, Message:${q(r.message)}, MessageExpression:${q(r.messageExpression)}, `
    + `Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, FieldPath:${q(r.fieldPath)}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf !== undefined)}}`;
}
