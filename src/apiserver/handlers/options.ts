// Query parameters shared by several verbs, checked as Kubernetes checks them.

import { badRequest, invalid } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';
import { intSyntaxError, queryBool } from '../query-params.ts';

/** dryRun: absent → false; `All` or no value → true; anything else is invalid */
export function dryRun(ctx: RequestContext, kind: string = 'DryRun'): boolean {
  const values = ctx.query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All' && v !== '') {
      throw invalid(kind, '', '', [{ type: 'FieldValueNotSupported', field: 'dryRun', value: values, detail: 'supported values: "All"' }]);
    }
  }
  return true;
}

/** a 64-bit integer parameter; undefined when absent or empty */
export function intParam(ctx: RequestContext, name: string): number | undefined {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  const err = intSyntaxError(v, false);
  if (err) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: ${err}`);
  return Number(v);
}

/** a boolean parameter; absent is false */
export function boolParam(ctx: RequestContext, name: string): boolean {
  return queryBool(ctx.query, name) ?? false;
}
