// The CRD write's own check of its `x-kubernetes-validations` (apiextensions validation): each
// rule's shape (rule, message, messageExpression, reason, fieldPath), then compiling rule and
// messageExpression (type checked against the schema), and oldSelf only where an old value can
// be correlated; then the estimated costs: each rule's times how often it can run (cost-limits.ts),
// and all of them together. Errors are placed under the schema's path as Kubernetes places them
// (`…properties[spec].x-kubernetes-validations[0].rule`).

import type { FieldError } from '../../../api/status.ts';
import { compiledRules, goRule } from './compiled.ts';
import { normalizeFieldPath } from './field-path.ts';
import { mapValues, ruleReasons, type RuleSchema } from './schema.ts';
import { childCardinality, costErrors, ruleCostErrors, type CostTotal } from './cost-limits.ts';

function shapeErrors(s: RuleSchema, at: string): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((r, i) => {
    const p = `${at}.x-kubernetes-validations[${i}]`;
    const rule = (r.rule ?? '').trim();
    const msg = (r.message ?? '').trim();
    if (!rule) errs.push({ type: 'FieldValueRequired', field: `${p}.rule`, detail: 'rule is not specified' });
    else if (r.message && !msg) errs.push({ type: 'FieldValueInvalid', field: `${p}.message`, value: r.message, detail: 'must be non-empty if specified' });
    else if (msg.includes('\n')) errs.push({ type: 'FieldValueInvalid', field: `${p}.message`, value: r.message, detail: 'must not contain line breaks' });
    else if (rule.includes('\n') && !msg) errs.push({ type: 'FieldValueRequired', field: `${p}.message`, detail: 'message must be specified if rule contains line breaks' });
    if (r.messageExpression !== undefined && r.messageExpression.length > 0 && !r.messageExpression.trim()) {
      errs.push({ type: 'FieldValueRequired', field: `${p}.messageExpression`, detail: 'messageExpression must be non-empty if specified' });
    }
    if (r.reason !== undefined && !ruleReasons.includes(r.reason)) {
      errs.push({ type: 'FieldValueNotSupported', field: `${p}.reason`, value: r.reason, detail: `supported values: ${ruleReasons.map(x => JSON.stringify(x)).join(', ')}` });
    }
    if (r.fieldPath !== undefined && r.fieldPath.length > 0) {
      if (!r.fieldPath.trim()) errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldPath`, value: r.fieldPath, detail: 'must be non-empty if specified' });
      if (r.fieldPath.includes('\n')) errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldPath`, value: r.fieldPath, detail: 'must not contain line breaks' });
      if (typeof normalizeFieldPath(r.fieldPath, s) !== 'string') errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldPath`, value: r.fieldPath, detail: 'must be a valid path' });
    }
  });
  return errs;
}

interface Visit { uncorrelatable?: string; root: boolean; cardinality: number | undefined; total: CostTotal; suppressPerExpressionCost: boolean }

function celErrors(s: RuleSchema, at: string, v: Visit): FieldError[] {
  const errs: FieldError[] = [];
  const uncorrelatable = v.uncorrelatable;
  compiledRules(s, v.root).forEach((c, i) => {
    const p = `${at}.x-kubernetes-validations[${i}]`;
    const costErrs = ruleCostErrors(c, p, v.cardinality, v.total);
    if (!v.suppressPerExpressionCost) errs.push(...costErrs);
    if (c.error) errs.push({ type: 'FieldValueInvalid', field: `${p}.rule`, goValue: goRule(c.rule), detail: c.error });
    if (c.messageError) errs.push({ type: 'FieldValueInvalid', field: `${p}.messageExpression`, goValue: goRule(c.rule), detail: c.messageError });
    if (c.error) return;
    if (c.usesOldSelf) {
      if (uncorrelatable) errs.push({ type: 'FieldValueInvalid', field: `${p}.rule`, value: c.rule.rule, detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}` });
    } else if (c.rule.optionalOldSelf !== undefined) {
      errs.push({ type: 'FieldValueInvalid', field: `${p}.optionalOldSelf`, value: c.rule.optionalOldSelf, detail: 'may not be set if oldSelf is not used in rule' });
    }
  });
  return errs;
}

function visit(s: RuleSchema, at: string, v: Visit, out: FieldError[]): void {
  if (s['x-kubernetes-validations']?.length) {
    const shape = shapeErrors(s, at);
    out.push(...shape);
    // as Kubernetes: CEL is not compiled while the node's rules are malformed
    if (!shape.length) out.push(...celErrors(s, at, v));
  }
  const below = { ...v, root: false, cardinality: childCardinality(s, v.cardinality) };
  for (const [k, sub] of Object.entries(s.properties ?? {})) visit(sub, `${at}.properties[${k}]`, below, out);
  const values = mapValues(s);
  if (values) visit(values, `${at}.additionalProperties`, below, out);
  if (s.items) {
    // only items of map lists have an old item to compare with
    const forbid = v.uncorrelatable ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : at);
    visit(s.items, `${at}.items`, { ...below, uncorrelatable: forbid }, out);
  }
  (s.allOf ?? []).forEach((b, i) => visit(b, `${at}.allOf[${i}]`, { ...v, root: false }, out));
}

/**
 * The errors of a CRD version's schema rules, for the CRD's validation on create and update;
 * pass `at` as the schema's full path (the default suits a schema validated on its own);
 * in a v1 CRD it is `spec.versions[0].schema.openAPIV3Schema`. `suppressPerExpressionCost` for a
 * version whose schema an update left as it was: only the schema's total cost is held against it.
 */
export function compileCelRules(schema: RuleSchema, at = 'openAPIV3Schema', opts: { suppressPerExpressionCost?: boolean } = {}): FieldError[] {
  const out: FieldError[] = [];
  const total: CostTotal = { total: 0, mostExpensive: [] };
  visit(schema, at, { root: true, cardinality: 1, total, suppressPerExpressionCost: opts.suppressPerExpressionCost === true }, out);
  out.push(...costErrors(total, at));
  return out;
}
