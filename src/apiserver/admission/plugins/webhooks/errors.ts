// The webhook admission errors as kube-apiserver words them. A failed call (unreachable,
// timed out, an invalid response) is a CallingWebhookError that failurePolicy decides about:
// Fail turns it into `Internal error occurred: failed calling webhook "x": ...`, Ignore drops
// it. A webhook's refusal keeps the Status it answered, its message prefixed with who refused.

import { internalError, StatusError, type Status, type StatusReason } from '../../../../api/status.ts';

export class CallingWebhookError extends Error {
  readonly webhook: string;
  constructor(webhook: string, reason: string) {
    super(`failed calling webhook "${webhook}": ${reason}`);
    this.webhook = webhook;
  }
}

/** failurePolicy Fail: the call's failure as a 500 */
export function failClosed(err: CallingWebhookError): StatusError {
  return internalError(err);
}

/** the Status a webhook sent with `allowed: false`, as the client sees it */
export function rejection(webhook: string, result: Partial<Status> | undefined | null): StatusError {
  const r = result ?? {};
  const by = `admission webhook "${webhook}" denied the request`;
  // never a success code or status with a refusal
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  let message: string;
  if (r.message) message = `${by}: ${r.message}`;
  else if (r.reason) message = `${by}: ${r.reason}`;
  else message = `${by} without explanation`;
  const e = new StatusError(code, (r.reason ?? '') as StatusReason, message, r.details);
  if (!r.reason) delete e.status.reason;
  return e;
}

/** a dry run may not reach a webhook that has side effects */
export function dryRunUnsupported(webhook: string): StatusError {
  return new StatusError(400, 'BadRequest', `admission webhook "${webhook}" does not support dry run`);
}

/** a mutation asked for an operation that has no object to change (DELETE, CONNECT) */
export function cannotModify(webhook: string): StatusError {
  return internalError(new Error(`admission webhook "${webhook}" attempted to modify the object, which is not supported for this operation`));
}

/** match conditions that could not be evaluated under failurePolicy Fail: 403 on the request's resource */
export function matchConditionsFailed(group: string, resource: string, name: string, errors: Error[]): StatusError {
  const why = errors.length === 1 ? errors[0]!.message : `[${errors.map(e => e.message).join(', ')}]`;
  const what = group ? `${resource}.${group}` : resource;
  const details = { name, kind: resource, ...(group ? { group } : {}) };
  return new StatusError(403, 'Forbidden', `${name ? `${what} "${name}"` : what} is forbidden: ${why}`, details);
}
