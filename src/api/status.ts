// Errors as Kubernetes `Status` objects. Every failure that reaches a client is one of these,
// with the reason, code and message wording that kubectl and client libraries parse and print.

export type StatusReason =
  | 'BadRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists' | 'Conflict'
  | 'Gone' | 'Expired' | 'Invalid' | 'MethodNotAllowed' | 'NotAcceptable' | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType' | 'TooManyRequests' | 'InternalError' | 'ServiceUnavailable' | 'Timeout'
  | 'ServerTimeout' | 'StoreReadError' | 'NonZeroExitCode' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An error that carries the Status the client will see. */
export class StatusError extends Error {
  status: Status;
  /** extra response headers (Retry-After, ...) */
  headers?: Record<string, string>;
  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'StatusError';
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
    if (details && Object.keys(details).length > 0) this.status.details = details;
  }
  get code(): number { return this.status.code; }
  get reason(): StatusReason { return this.status.reason ?? ''; }
}

/** group-qualified resource as Kubernetes prints it: "pods", "deployments.apps" */
export interface QualifiedResource { group: string; resource: string }

function qualified(r: QualifiedResource): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

function detailsOf(r: QualifiedResource, name: string): StatusDetails {
  const d: StatusDetails = { name, kind: r.resource };
  if (r.group) d.group = r.group;
  return d;
}

export function notFound(r: QualifiedResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualified(r)} "${name}" not found`, detailsOf(r, name));
}

export function alreadyExists(r: QualifiedResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualified(r)} "${name}" already exists`, detailsOf(r, name));
}

export const conflictModified = 'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(r: QualifiedResource, name: string, why: string = conflictModified): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(r)} "${name}": ${why}`, detailsOf(r, name));
}

export type FieldErrorType =
  | 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueNotFound'
  | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany' | 'FieldValueTypeInvalid' | 'InternalError';

/** one problem with one field, worded as Kubernetes' field errors are */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** the offending value, shown quoted (strings) or as JSON; omitted for Required/Forbidden */
  value?: unknown;
  /** the value as Go's %#v prints a Go struct (a CRD's ValidationRule), shown as is instead of `value` */
  goValue?: string;
  detail?: string;
}

const fieldErrorWords: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

function showValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  return JSON.stringify(v);
}

/** "metadata.name: Invalid value: \"X\": detail" */
export function fieldErrorMessage(e: FieldError): string {
  const words = fieldErrorWords[e.type];
  let s = `${e.field}: ${words}`;
  const showsValue = e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.type !== 'InternalError' && e.value !== undefined;
  if (e.goValue !== undefined && e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden') s += `: ${e.goValue}`;
  else if (showsValue) s += `: ${showValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** 422 Invalid: `Pod "x" is invalid: <field errors>` */
export function invalid(kind: string, group: string, name: string, errors: FieldError[]): StatusError {
  const msgs = errors.map(fieldErrorMessage);
  const aggregate = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  const details: StatusDetails = { name, kind, causes: errors.map(e => ({ reason: e.type, message: fieldErrorMessage(e).slice(e.field.length + 2), field: e.field })) };
  if (group) details.group = group;
  return new StatusError(422, 'Invalid', `${kind}${group ? '.' + group : ''} "${name}" is invalid: ${aggregate}`, details);
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

export function notAcceptable(accepted: string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function unsupportedMediaType(accepted: string[]): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

export function requestEntityTooLarge(limit: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(r: QualifiedResource, name: string, why: string): StatusError {
  const what = name ? `${qualified(r)} "${name}"` : qualified(r);
  return new StatusError(403, 'Forbidden', `${what} is forbidden: ${why}`, detailsOf(r, name));
}

/** the path matched no resource the server serves */
export function resourceNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function gone(message: string): StatusError {
  return new StatusError(410, 'Gone', message);
}

export function expired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function timeout(message: string, retryAfterSeconds: number): StatusError {
  const e = new StatusError(504, 'Timeout', message, { retryAfterSeconds });
  e.headers = { 'Retry-After': String(retryAfterSeconds) };
  return e;
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

export function internalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

/**
 * Anything thrown, as a StatusError. An error nobody turned into a Status is a fault of the
 * server: a 500 InternalError whose details go to the server log, never to the client.
 */
export function toStatusError(err: unknown): StatusError {
  return err instanceof StatusError ? err : new StatusError(500, 'InternalError', 'Internal error occurred: the server could not handle this request; its log has the details');
}
