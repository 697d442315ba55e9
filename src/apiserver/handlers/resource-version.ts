// resourceVersion and resourceVersionMatch on get, list and watch, cell by cell as the
// spec's tables (000 §4.7) give them. Every read is served by the registry: "Most Recent" and
// "Any" read the newest data, "Not older than" waits until reads see the version,
// "Exact" reads at that revision (410 when compacted).

import { badRequest, fieldErrorMessage, invalid, StatusError, type FieldError } from '../../api/status.ts';
import { intSyntaxError, queryBool } from '../query-params.ts';
import type { RequestContext } from '../context.ts';

export interface ReadPlan {
  /** read at exactly this revision (undefined: newest) */
  exact?: number;
  /** the newest data must be at least this recent */
  notOlderThan?: number;
}

export interface WatchPlan {
  /** send the current state as ADDED events first, then the events after it */
  initialState: boolean;
  /** mark the end of the initial state with a bookmark (sendInitialEvents=true) */
  initialEventsEnd: boolean;
  /** without initial state: events after this revision (undefined: after the newest) */
  after?: number;
  /** the initial state must be at least this recent */
  notOlderThan?: number;
}

/** a resourceVersion is an unsigned 64-bit integer; why `v` is not one, as a field error */
function revisionError(v: string): FieldError | undefined {
  const err = intSyntaxError(v, true);
  return err ? { type: 'FieldValueInvalid', field: 'resourceVersion', value: v, detail: err } : undefined;
}

/** reads refuse a resourceVersion that does not parse with a 400, as storage does */
function parseRevision(v: string): number {
  const err = revisionError(v);
  if (err) throw badRequest(`invalid resource version: ${fieldErrorMessage(err)}`);
  return Number(v);
}

function listOptionsInvalid(errors: FieldError[]): StatusError {
  return invalid('ListOptions', 'meta.k8s.io', '', errors);
}

function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

function matchParam(ctx: RequestContext): 'Exact' | 'NotOlderThan' | undefined {
  const m = ctx.query.get('resourceVersionMatch');
  if (m === null || m === '') return undefined;
  if (m !== 'Exact' && m !== 'NotOlderThan') {
    throw listOptionsInvalid([{ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', value: m, detail: 'supported values: "Exact", "NotOlderThan", ""' }]);
  }
  return m;
}

export function getPlan(ctx: RequestContext): ReadPlan {
  const rv = ctx.query.get('resourceVersion');
  if (rv === null || rv === '' || rv === '0') return {};
  return { notOlderThan: parseRevision(rv) };
}

export function listPlan(ctx: RequestContext): ReadPlan {
  const rv = ctx.query.get('resourceVersion') ?? '';
  const match = matchParam(ctx);
  const limited = Number(ctx.query.get('limit') ?? 0) > 0;
  const cont = ctx.query.get('continue') ?? '';
  // every rule a list's options break, reported together
  const errors: FieldError[] = [];
  if (match && rv === '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
  if (match && cont) errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  if (match === 'Exact' && rv === '0') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  if (ctx.query.has('sendInitialEvents')) errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (errors.length) throw listOptionsInvalid(errors);
  if (cont) {
    if (rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    return {};
  }
  if (rv === '' || rv === '0') return {};
  const n = parseRevision(rv);
  if (match === 'Exact' || (!match && limited)) return { exact: n };
  return { notOlderThan: n };
}

export function watchPlan(ctx: RequestContext): WatchPlan {
  const rv = ctx.query.get('resourceVersion') ?? '';
  const match = matchParam(ctx);
  const sie = queryBool(ctx.query, 'sendInitialEvents');
  if (sie !== undefined && match !== 'NotOlderThan') throw listOptionsInvalid([forbidden('resourceVersionMatch', "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")]);
  if (sie === undefined && match) throw listOptionsInvalid([forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided')]);
  // a watch's storage reports a resourceVersion that does not parse as the resource's 422
  const bad = rv === '' || rv === '0' ? undefined : revisionError(rv);
  if (bad) throw invalid(ctx.resource?.resource ?? '', ctx.resource?.group ?? '', ctx.info.name ?? '', [bad]);
  const n = rv === '' || rv === '0' ? undefined : Number(rv);
  if (sie === true) return { initialState: true, initialEventsEnd: true, notOlderThan: n };
  if (sie === false) return { initialState: false, initialEventsEnd: false, after: n };
  if (n === undefined) return { initialState: true, initialEventsEnd: false };
  return { initialState: false, initialEventsEnd: false, after: n };
}
