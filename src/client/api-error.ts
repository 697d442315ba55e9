// A failed API call as the server described it: its Status (code, reason, message), so callers
// branch on reason and code the way client-go's IsNotFound/IsConflict/IsGone do.

import type { Status, StatusReason } from '../api/status.ts';

export class ApiError extends Error {
  status: Status;
  constructor(status: Status) {
    super(status.message || `the server responded with HTTP ${status.code}`);
    this.name = 'ApiError';
    this.status = status;
  }
  get code(): number { return this.status.code; }
  get reason(): StatusReason { return this.status.reason ?? ''; }
}

// reasons a server implies by the HTTP code alone, for error bodies that are not a Status
const reasonByCode: Record<number, StatusReason> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType',
  422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
};

function isStatus(v: unknown): v is Status {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Status';
}

/** the error for a non-2xx response: its Status body, or one made from the code and text */
export function apiErrorFromResponse(httpCode: number, body: string): ApiError {
  let parsed: unknown;
  try { parsed = body ? JSON.parse(body) : undefined; } catch { parsed = undefined; }
  if (isStatus(parsed)) return new ApiError({ ...parsed, code: parsed.code || httpCode });
  return new ApiError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: httpCode,
    reason: reasonByCode[httpCode] ?? '',
    message: body.trim().slice(0, 500) || `the server responded with HTTP ${httpCode}`,
  });
}

/** the error an ERROR watch event carries (its object is a Status) */
export function apiErrorFromWatchEvent(object: unknown): ApiError {
  if (isStatus(object)) return new ApiError(object);
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: 'InternalError', message: `watch error: ${JSON.stringify(object)}` });
}

function codeOf(err: unknown): number | undefined {
  return err instanceof ApiError ? err.code : undefined;
}

export const isNotFound = (err: unknown): boolean => codeOf(err) === 404;
export const isConflict = (err: unknown): boolean => codeOf(err) === 409 && (err as ApiError).reason !== 'AlreadyExists';
export const isAlreadyExists = (err: unknown): boolean => err instanceof ApiError && err.reason === 'AlreadyExists';
/** the resourceVersion asked for is older than the server's history: list again */
export const isGone = (err: unknown): boolean => codeOf(err) === 410 || (err instanceof ApiError && (err.reason === 'Expired' || err.reason === 'Gone'));
export const isMethodNotAllowed = (err: unknown): boolean => codeOf(err) === 405;
