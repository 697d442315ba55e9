// PodLogOptions as kube-apiserver reads them from the query of pods/log: decoded as its
// parameter codec converts query strings (a boolean is false only for "0", "f" or "false"; an
// integer is strconv.ParseInt's; a time is RFC 3339 as time.Parse reads it), a decoding failure
// being a 400 with Go's error, then validated as ValidatePodLogOptions does (422 Invalid on
// PodLogOptions). The query sent on to the node agent is rebuilt from the decoded options, as
// LogLocation builds the kubelet's.

import { badRequest, invalid, type FieldError } from '../../api/status.ts';
import { parseInt64 } from '../../api/selectors/label-requirement.ts';
import { timeError } from '../../schema/decode-checks/value-formats.ts';

export interface PodLogOptions {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  /** ms since the epoch, second precision as metav1.Time keeps it; 0 is Go's zero time */
  sinceTime?: number;
  sinceSeconds?: number;
  tailLines?: number;
  limitBytes?: number;
  insecureSkipTLSVerifyBackend: boolean;
}

/** Convert_Slice_string_To_bool: anything but 0, f and false (any case) is true */
const bool = (q: URLSearchParams, name: string): boolean => {
  const v = q.get(name);
  return v !== null && !(v === '0' || /^(f|false)$/i.test(v));
};

/** Convert_Slice_string_To_Pointer_int64 */
function int64(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (parseInt64(v) !== undefined) return Number(v);
  const why = /^[+-]?[0-9]+$/.test(v) ? 'value out of range' : 'invalid syntax';
  throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`);
}

/** Go's zero time, 0001-01-01T00:00:00Z */
const zeroTime = new Date(0).setUTCFullYear(1, 0, 1);

/** metav1.Time's UnmarshalQueryParameter: "" and "null" are the zero time */
function time(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === '' || v === 'null') return zeroTime;
  const err = timeError(v);
  if (err) throw badRequest(err);
  // whole seconds: the query parameter's precision once it is a metav1.Time
  return Math.floor(Date.parse(v) / 1000) * 1000;
}

export function decodePodLogOptions(q: URLSearchParams): PodLogOptions {
  const container = q.get('container');
  const out: PodLogOptions = {
    follow: bool(q, 'follow'), previous: bool(q, 'previous'), timestamps: bool(q, 'timestamps'),
    insecureSkipTLSVerifyBackend: bool(q, 'insecureSkipTLSVerifyBackend'),
  };
  if (container) out.container = container;
  const sinceSeconds = int64(q, 'sinceSeconds'), sinceTime = time(q, 'sinceTime'), tailLines = int64(q, 'tailLines'), limitBytes = int64(q, 'limitBytes');
  if (sinceSeconds !== undefined) out.sinceSeconds = sinceSeconds;
  if (sinceTime !== undefined) out.sinceTime = sinceTime;
  if (tailLines !== undefined) out.tailLines = tailLines;
  if (limitBytes !== undefined) out.limitBytes = limitBytes;
  return out;
}

export function validatePodLogOptions(o: PodLogOptions, podName: string): void {
  const errs: FieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0) errs.push({ type: 'FieldValueInvalid', field: 'tailLines', value: o.tailLines, detail: 'must be greater than or equal to 0' });
  if (o.limitBytes !== undefined && o.limitBytes < 1) errs.push({ type: 'FieldValueInvalid', field: 'limitBytes', value: o.limitBytes, detail: 'must be greater than 0' });
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) {
    // a field path with no name, which Kubernetes prints as "[]"
    errs.push({ type: 'FieldValueForbidden', field: '[]', detail: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) {
    errs.push({ type: 'FieldValueInvalid', field: 'sinceSeconds', value: o.sinceSeconds, detail: 'must be greater than 0' });
  }
  if (errs.length) throw invalid('PodLogOptions', '', podName, errs);
}

/** RFC 3339 in whole seconds, as Go formats a time with time.RFC3339 */
const rfc3339Seconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** the node agent's query, as LogLocation builds the kubelet's: only what is set, booleans only when true */
export function agentLogQuery(o: PodLogOptions): URLSearchParams {
  const q = new URLSearchParams();
  if (o.follow) q.set('follow', 'true');
  if (o.previous) q.set('previous', 'true');
  if (o.timestamps) q.set('timestamps', 'true');
  if (o.sinceSeconds !== undefined) q.set('sinceSeconds', String(o.sinceSeconds));
  if (o.sinceTime !== undefined) q.set('sinceTime', rfc3339Seconds(o.sinceTime));
  if (o.tailLines !== undefined) q.set('tailLines', String(o.tailLines));
  if (o.limitBytes !== undefined) q.set('limitBytes', String(o.limitBytes));
  return q;
}
