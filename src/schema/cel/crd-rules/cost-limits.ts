// The static cost limits a CRD's rules must keep, as apiextensions-apiserver checks them when
// the CRD is written: a rule's estimated cost times how many times it can run (the product of
// maxItems/maxProperties of the lists and maps above it, or, under an unbounded one, how many
// of its values fit in the largest request) must stay within StaticEstimatedCostLimit, a
// messageExpression's estimated cost too, and all of them together within
// StaticEstimatedCRDCostLimit, the four most expensive (of at least 1% of it) named when not.

import type { FieldError } from '../../../api/status.ts';
import { costCeiling } from '../checker/cost.ts';
import type { CompiledRule } from './compiled.ts';
import { mapValues, staticEstimatedCostLimit, staticEstimatedCrdCostLimit, type RuleSchema } from './schema.ts';

export interface CostTotal { total: number; mostExpensive: Array<{ path: string; cost: number }> }

/** how many times values below `s` can occur, given `s` occurs `cardinality` times (undefined: unbounded) */
export function childCardinality(s: RuleSchema, cardinality: number | undefined): number | undefined {
  if (cardinality === undefined) return undefined;
  let factor = 1;
  if (s.type === 'object' && (mapValues(s) || s.additionalProperties !== undefined)) {
    if (s.maxProperties === undefined) return undefined;
    factor = Math.max(0, s.maxProperties);
  } else if (s.type === 'array') {
    if (s.maxItems === undefined) return undefined;
    factor = Math.max(0, s.maxItems);
  }
  return Math.min(cardinality * factor, costCeiling);
}

/** getCostErrorMessage: by how much a cost exceeds its limit, in Go's %f / %.1f */
export function costExceedsMessage(what: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

function observe(total: CostTotal, path: string, cost: number): void {
  total.total = Math.min(total.total + cost, costCeiling);
  // rules under 1% of the CRD's limit are never named
  if (cost < staticEstimatedCrdCostLimit / 100) return;
  total.mostExpensive.push({ path, cost });
  total.mostExpensive.sort((a, b) => b.cost - a.cost);
  total.mostExpensive.length = Math.min(total.mostExpensive.length, 4);
}

/** one rule's cost errors at `p` (`…x-kubernetes-validations[i]`), its costs added to `total` */
export function ruleCostErrors(c: CompiledRule, p: string, cardinality: number | undefined, total: CostTotal): FieldError[] {
  const errs: FieldError[] = [];
  const times = cardinality ?? c.maxCardinality;
  const cost = c.maxCost === 0 ? 0 : Math.min(c.maxCost * times, costCeiling);
  if (cost > staticEstimatedCostLimit) errs.push({ type: 'FieldValueForbidden', field: `${p}.rule`, detail: costExceedsMessage('estimated rule cost', cost, staticEstimatedCostLimit) });
  observe(total, `${p}.rule`, cost);
  if (c.message) {
    // a messageExpression runs once per failure; Kubernetes does not multiply it
    if (c.messageMaxCost > staticEstimatedCostLimit) errs.push({ type: 'FieldValueForbidden', field: `${p}.messageExpression`, detail: costExceedsMessage('estimated messageExpression cost', c.messageMaxCost, staticEstimatedCostLimit) });
    observe(total, `${p}.messageExpression`, c.messageMaxCost);
  }
  return errs;
}

/** the whole schema's errors when its rules together exceed the CRD limit; `at` is the schema's path */
export function costErrors(total: CostTotal, at: string): FieldError[] {
  if (total.total <= staticEstimatedCrdCostLimit) return [];
  return [
    ...total.mostExpensive.map(e => ({ type: 'FieldValueForbidden' as const, field: e.path, detail: 'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema' })),
    { type: 'FieldValueForbidden', field: at, detail: costExceedsMessage('x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema', total.total, staticEstimatedCrdCostLimit) },
  ];
}
