// --request-timeout: a request that is not long-running (not a watch, proxy, exec, attach, log or
// port-forward) is answered 504 Timeout once its time is up, however slowly its body arrives or
// its work goes. A client may ask for less with ?timeout=, never for more.

import { badRequest, StatusError } from '../api/status.ts';
import { parseDuration } from '../api/duration.ts';

/** kube-apiserver's default --request-timeout */
export const defaultRequestTimeoutMs = 60_000;

/**
 * the time a request gets: the server's, or the client's ?timeout= when shorter and above zero
 * (as kube-apiserver reads it: a Go duration; anything else is a 400)
 */
export function requestDeadlineMs(query: URLSearchParams, serverMs: number): number {
  const value = query.get('timeout');
  if (!value) return serverMs;
  let asked: number;
  try {
    asked = parseDuration(value);
  } catch {
    const why = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(value) ? 'missing unit in duration' : 'invalid duration';
    throw badRequest(`invalid timeout specified in the request URL - time: ${why} ${JSON.stringify(value)}`);
  }
  return asked > 0 && asked < serverMs ? asked : serverMs;
}

/** the Status kube-apiserver's timeout filter writes (NewTimeoutError with no retry hint) */
export function requestTimedOut(): StatusError {
  const err = new StatusError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout');
  err.status.details = {}; // Kubernetes sends the empty details of a zero retry hint
  return err;
}
