// resourceVersion / resourceVersionMatch on reads. This issue serves every read from storage;
// "Any" and "Not older than" are satisfied by the newest data, "Exact" reads at that revision.

import { badRequest, StatusError } from '../../api/status.ts';
import type { RequestContext } from '../context.ts';

function parseRevision(v: string): number {
  if (!/^\d+$/.test(v)) throw badRequest(`Invalid value: ${JSON.stringify(v)}: invalid resource version`);
  return Number(v);
}

/** the revision to read at for get/list, or undefined for the newest */
export function readRevision(ctx: RequestContext, verb: 'get' | 'list'): number | undefined {
  const rv = ctx.query.get('resourceVersion');
  const match = ctx.query.get('resourceVersionMatch');
  if (match && match !== 'Exact' && match !== 'NotOlderThan') {
    throw new StatusError(400, 'BadRequest', `resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
  }
  if (verb === 'get') {
    if (rv === null || rv === '' || rv === '0') return undefined;
    parseRevision(rv);
    return undefined;
  }
  if (match && (rv === null || rv === '')) {
    throw new StatusError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`);
  }
  if (match === 'Exact' && rv === '0') {
    throw new StatusError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`);
  }
  if (rv === null || rv === '' || rv === '0') return undefined;
  const n = parseRevision(rv);
  const limited = !!ctx.query.get('limit') && ctx.query.get('limit') !== '0';
  if (match === 'Exact' || (!match && limited)) return n;
  return undefined;
}

/** the revision a watch starts after, or undefined to send the current state first */
export function watchStart(ctx: RequestContext): number | undefined {
  const rv = ctx.query.get('resourceVersion');
  if (rv === null || rv === '' || rv === '0') return undefined;
  return parseRevision(rv);
}
