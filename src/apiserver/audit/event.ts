// The audit event (`audit.k8s.io/v1` Event) and its JSON line, fields in the order and with the
// omissions of Kubernetes' Go struct, so tools reading kube-apiserver's audit logs read ours.

import { goEscape } from '../../codec/go-json.ts';
import { rfc3339Micro, rfc3339Nano } from '../../api/time.ts';
import type { StatusDetails } from '../../api/status.ts';
import type { User } from '../user.ts';
import type { Level, Stage } from './policy.ts';

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: User;
  impersonatedUser?: User;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  /** milliseconds since the epoch */
  requestReceived: number;
  stageTime: number;
  annotations?: Record<string, string>;
}

function userInfo(u: User): Record<string, unknown> {
  // Go leaves an empty username out (a request whose credentials failed has none)
  const out: Record<string, unknown> = {};
  if (u.name) out.username = u.name;
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) out.extra = Object.fromEntries(Object.entries(u.extra).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return out;
}

function objectRef(r: ObjectReference): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const) {
    if (r[k]) out[k] = r[k];
  }
  return out;
}

function responseStatus(s: ResponseStatus): Record<string, unknown> {
  const out: Record<string, unknown> = { metadata: {} };
  if (s.status) out.status = s.status;
  if (s.message) out.message = s.message;
  if (s.reason) out.reason = s.reason;
  if (s.details) out.details = s.details;
  out.code = s.code;
  return out;
}

// formatting a time is the dearest part of an event line: the second is formatted once and the
// fraction appended, in Kubernetes' MicroTime form
let cachedSecond = NaN;
let cachedPrefix = '';
function microTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = rfc3339Micro(second * 1000).slice(0, 19);
  }
  return `${cachedPrefix}.${String(Math.floor(ms - second * 1000)).padStart(3, '0')}000Z`;
}

/** the event as one line of JSON (no newline) */
export function eventJson(e: AuditEvent): string {
  const out: Record<string, unknown> = {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: e.level, auditID: e.auditID, stage: e.stage,
    requestURI: e.requestURI, verb: e.verb, user: userInfo(e.user),
  };
  if (e.impersonatedUser) out.impersonatedUser = userInfo(e.impersonatedUser);
  if (e.sourceIPs?.length) out.sourceIPs = e.sourceIPs;
  if (e.userAgent) out.userAgent = e.userAgent;
  if (e.objectRef) out.objectRef = objectRef(e.objectRef);
  if (e.responseStatus) out.responseStatus = responseStatus(e.responseStatus);
  if (e.requestObject !== undefined) out.requestObject = e.requestObject;
  if (e.responseObject !== undefined) out.responseObject = e.responseObject;
  out.requestReceivedTimestamp = microTime(e.requestReceived);
  out.stageTimestamp = microTime(e.stageTime);
  if (e.annotations && Object.keys(e.annotations).length) {
    out.annotations = Object.fromEntries(Object.entries(e.annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return goEscape(JSON.stringify(out));
}

/** the legacy text format of --audit-log-format=legacy: one line of Go-quoted key=value pairs */
export function eventLegacy(e: AuditEvent): string {
  const q = (v: string) => JSON.stringify(v);
  const list = (vs: string[]) => vs.map(q).join(',');
  const named = e.user.name !== '';
  const as = e.impersonatedUser;
  const fields = [
    `id=${q(e.auditID)}`, `stage=${q(e.stage)}`, `ip=${q(e.sourceIPs?.[0] ?? '<unknown>')}`, `method=${q(e.verb)}`,
    `user=${q(named ? e.user.name : '<none>')}`, `groups=${q(named && e.user.groups.length ? list(e.user.groups) : '<none>')}`,
    `as=${q(as ? as.name : '<self>')}`, `asgroups=${q(as ? list(as.groups) : '<lookup>')}`,
    `user-agent=${q(e.userAgent ?? '')}`, `namespace=${q(e.objectRef?.namespace || '<none>')}`, `uri=${q(e.requestURI)}`,
    `response="${e.responseStatus ? e.responseStatus.code : '<deferred>'}"`,
  ];
  return `${rfc3339Nano(e.requestReceived)} AUDIT: ${fields.join(' ')}`;
}
