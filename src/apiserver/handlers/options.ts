// Query parameters shared by several verbs, checked as Kubernetes checks them.

import { badRequest, invalid } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';

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

export function intParam(ctx: RequestContext, name: string): number | undefined {
  const v = ctx.query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

export function boolParam(ctx: RequestContext, name: string): boolean {
  const v = ctx.query.get(name);
  return v === '' || v === 'true' || v === '1';
}
