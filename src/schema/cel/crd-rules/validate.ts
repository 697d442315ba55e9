// Evaluating a CRD's `x-kubernetes-validations` over a whole object, as apiextensions-apiserver's
// CEL validator does: every node with rules gets `self` (and `oldSelf` on update, correlated
// through map keys, properties and list-map keys), rules run in order against one runtime cost
// budget for the object, and failures become field errors worded as Kubernetes words them.
// Errors of rules without oldSelf on a value that did not change are ratcheted to warnings.

import { isCelError, type CelInput } from '@bufbuild/cel';
import { fieldErrorMessage, type FieldError } from '../../../api/status.ts';
import { compiledRules, type CompiledRule } from './compiled.ts';
import { metered } from './cost.ts';
import { correlatedItem, deepEqual } from './correlate.ts';
import { celGoError, evalMessageExpression, ruleFailure } from './messages.ts';
import { mapValues, perCallLimit, ruleErrorString, runtimeCostBudget, type RuleSchema } from './schema.ts';
import { toTypedCel } from './values.ts';
import { optionalOfInput } from '../optionals.ts';

export interface CelValidationResult { errors: FieldError[]; warnings: string[]; cost: number }

interface Walk { budget: number; errors: FieldError[]; warnings: string[] }

const child = (p: string | undefined, name: string) => (p ? `${p}.${name}` : name);
const key = (p: string | undefined, k: string) => `${p ?? ''}[${k}]`;
const shown = (p: string | undefined) => p ?? '<nil>';

function invalidAt(field: string | undefined, s: RuleSchema, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: shown(field), value: s.type ?? '', detail };
}

/** runs one node's rules; false once the budget is spent (no further rules run) */
function runRules(w: Walk, field: string | undefined, s: RuleSchema, obj: unknown, old: unknown, root: boolean, same: boolean): boolean {
  const rules = compiledRules(s, root);
  if (!rules.length) return true;
  if (w.budget <= 0) {
    w.errors.push(invalidAt(field, s, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    return false;
  }
  const self = toTypedCel(obj, s, root);
  const oldSelf: CelInput | undefined = old === undefined || old === null ? undefined : toTypedCel(old, s, root);
  for (const c of rules) {
    if (c.error) { w.errors.push(invalidAt(field, s, `rule compile error: ${c.error}`)); continue; }
    if (!c.program) continue;
    // transition rules run only when there is an old value to compare with, unless they take
    // oldSelf as an optional (optionalOldSelf)
    const optional = c.usesOldSelf && c.rule.optionalOldSelf === true;
    if (c.usesOldSelf && oldSelf === undefined && !optional) continue;
    const bound = optional ? optionalOfInput(oldSelf) : oldSelf ?? null;
    const run = metered(Math.min(perCallLimit, w.budget), () => c.program!.run({ self, oldSelf: bound }));
    const r = run.result;
    if (run.exceeded) {
      if (run.cost > w.budget && w.budget < perCallLimit) {
        w.errors.push(invalidAt(field, s, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      } else {
        w.errors.push(invalidAt(field, s, `'${isCelError(r) ? r.message : ''}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(c.rule)}`));
      }
      w.budget = -1;
      return false;
    }
    w.budget -= run.cost;
    if (isCelError(r)) {
      const msg = celGoError(r.message);
      w.errors.push(invalidAt(field, s, msg.startsWith('no such overload')
        ? `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(c.rule)}`
        : `${msg} evaluating rule: ${ruleErrorString(c.rule)}`));
      continue;
    }
    if (r === true) continue;
    if (typeof r !== 'boolean') { w.errors.push(invalidAt(field, s, `cel expression must evaluate to a bool evaluating rule: ${ruleErrorString(c.rule)}`)); continue; }
    if (!failed(w, field, s, obj, c, { self, oldSelf: oldSelf ?? null }, same && !c.usesOldSelf)) return false;
  }
  return true;
}

/** reports a rule that evaluated to false; false when its messageExpression spent the budget */
function failed(w: Walk, field: string | undefined, s: RuleSchema, obj: unknown, c: CompiledRule, vars: Record<string, CelInput>, ratchet: boolean): boolean {
  const at = c.fieldPath ? child(field, c.fieldPath) : field;
  const add = (e: FieldError) => { if (ratchet) w.warnings.push(fieldErrorMessage(e)); else w.errors.push(e); };
  let detail = c.rule.message?.trim() || `failed rule: ${c.rule.rule.trim()}`;
  if (c.message) {
    const m = evalMessageExpression(c.message, c.rule.messageExpression!, vars, w.budget);
    if (m.fatal !== undefined) { add(invalidAt(at, s, m.fatal)); w.budget = -1; return false; }
    w.budget = m.budget;
    if (m.message !== undefined) detail = m.message;
  }
  add(ruleFailure(shown(at), s, obj, detail, c.rule.reason));
  return true;
}

/**
 * `inherited`: inside a subtree Kubernetes cannot correlate (items of lists that are not map
 * lists), whether the nearest correlated ancestor is unchanged, which decides ratcheting there.
 */
function walk(w: Walk, field: string | undefined, s: RuleSchema, obj: unknown, old: unknown, root: boolean, inherited?: boolean): boolean {
  if (obj === null || obj === undefined) return true;
  const same = inherited ?? (old !== undefined && old !== null && deepEqual(obj, old));
  if (!runRules(w, field, s, obj, old, root, same)) return false;
  for (const branch of s.allOf ?? []) if (!walk(w, field, branch, obj, old, false, inherited)) return false;
  if (Array.isArray(obj)) {
    if (!s.items) return true;
    const olds = Array.isArray(old) ? old : undefined;
    const itemsInherit = s['x-kubernetes-list-type'] === 'map' ? inherited : same;
    for (let i = 0; i < obj.length; i++) {
      if (!walk(w, `${field ?? ''}[${i}]`, s.items, obj[i], correlatedItem(s, olds, obj[i]), s.items['x-kubernetes-embedded-resource'] === true, itemsInherit)) return false;
    }
    return true;
  }
  if (typeof obj !== 'object') return true;
  const o = obj as Record<string, unknown>;
  const oldMap = old && typeof old === 'object' && !Array.isArray(old) ? old as Record<string, unknown> : undefined;
  const values = mapValues(s);
  for (const [k, v] of Object.entries(o)) {
    if (values && !walk(w, key(field, k), values, v, oldMap?.[k], values['x-kubernetes-embedded-resource'] === true, inherited)) return false;
    const sub = s.properties?.[k];
    if (sub && !walk(w, child(field, k), sub, v, oldMap?.[k], sub['x-kubernetes-embedded-resource'] === true, inherited)) return false;
  }
  return true;
}

/**
 * Validates `newObj` (a whole custom resource, JSON) against the CEL rules of its version's
 * structural schema; `oldObj` on update. Returns the field errors (a 422's causes), the
 * warnings of ratcheted rules, and the runtime cost spent.
 */
export function validateCelRulesDetailed(schema: RuleSchema, newObj: unknown, oldObj?: unknown, budget = runtimeCostBudget): CelValidationResult {
  const w: Walk = { budget, errors: [], warnings: [] };
  walk(w, undefined, schema, newObj, oldObj, true);
  return { errors: w.errors, warnings: w.warnings, cost: budget - Math.max(w.budget, 0) };
}

/** the field errors of validateCelRulesDetailed */
export function validateCelRules(schema: RuleSchema, newObj: unknown, oldObj?: unknown): FieldError[] {
  return validateCelRulesDetailed(schema, newObj, oldObj).errors;
}
