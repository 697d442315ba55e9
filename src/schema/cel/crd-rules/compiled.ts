// Compiling the `x-kubernetes-validations` of one schema node once: each rule and its
// messageExpression, with `self` and `oldSelf` typed from the schema (decl-types.ts) and type
// checked, on the metered environment; whether the rule reads oldSelf (a transition rule); the
// estimated cost of each; and its fieldPath normalized. Cached per schema node.

import { CelCompileError, compileCel, type CelExpr, type CompiledExpression } from '../compile.ts';
import { checkExpression, type Checked } from '../checker/check.ts';
import { estimateCost } from '../checker/cost.ts';
import { DYN, maxElementsOf, optionalOf, type CelType } from '../checker/types.ts';
import { addIterationTicks, meteredEnv } from './cost.ts';
import { declType, maxCardinality } from './decl-types.ts';
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
  /** the estimated worst-case cost of one evaluation of the rule and of its messageExpression */
  maxCost: number;
  messageMaxCost: number;
  /** how often a rule here could run in the largest object, when nothing above bounds it */
  maxCardinality: number;
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

interface Typed { program: CompiledExpression; checked: Checked; cost: number }

function compileOne(expression: string, vars: ReadonlyMap<string, CelType>, onExpr?: (e: CelExpr) => void): Typed {
  const rootSize = maxElementsOf(vars.get('self') ?? DYN) ?? 0;
  let checked: Checked | undefined;
  let cost = 0;
  const program = compileCel(expression, ['self', 'oldSelf'], {
    env: meteredEnv,
    typeCheck: e => (checked = checkExpression(e, vars)).problems,
    // estimated before the iteration ticks are added, on the expression as written
    rewrite: e => { onExpr?.(e); cost = estimateCost(e, checked!, rootSize).max; addIterationTicks(e); },
  });
  return { program, checked: checked!, cost };
}

function compileRule(schema: RuleSchema, rule: ValidationRule, root: boolean): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, messageMaxCost: 0, maxCardinality: 0 };
  if (!rule.rule?.trim()) return out;
  const decl = declType(schema, root, 'selfType0');
  const self = decl?.type ?? DYN;
  const vars = new Map<string, CelType>([['self', self], ['oldSelf', rule.optionalOldSelf === true ? optionalOf(self) : self]]);
  try {
    const compiled = compileOne(rule.rule, vars, e => { out.usesOldSelf = readsOldSelf(e); });
    if (compiled.checked.type.kind !== 'bool') {
      out.error = 'cel expression must evaluate to a bool';
      return out;
    }
    out.program = compiled.program;
    out.maxCost = compiled.cost;
    out.maxCardinality = maxCardinality(decl?.minSize ?? 0);
  } catch (err) {
    if (!(err instanceof CelCompileError)) throw err;
    out.error = `compilation failed: ${err.message}`;
    return out;
  }
  if (rule.messageExpression) {
    try {
      const compiled = compileOne(rule.messageExpression, vars);
      if (compiled.checked.type.kind !== 'string') out.messageError = 'messageExpression must evaluate to a string';
      else { out.message = compiled.program; out.messageMaxCost = compiled.cost; }
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

/**
 * the node's rules compiled (cached while the schema object lives); `root` for the schema of the
 * whole object, whose `self` also has apiVersion, kind and metadata
 */
export function compiledRules(schema: RuleSchema, root = false): CompiledRule[] {
  let c = cache.get(schema);
  if (!c) {
    c = (schema['x-kubernetes-validations'] ?? []).map(r => compileRule(schema, r, root));
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
