// The audit of the requests: the policy picks each request's level, and its events (one per
// stage the policy keeps) go to the backend as lines. Built once per server from the flags.

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { StatusError } from '../../api/status.ts';
import { yamlLibrary } from '../../api/yaml-library.ts';
import { bodyText } from '../../codec/decode.ts';
import { decodeProtobufObject } from '../../codec/protobuf/envelope.ts';
import { decodeCborBody } from '../request-object.ts';
import type { User } from '../user.ts';
import type { RequestInfo } from '../request-info.ts';
import { evaluatePolicy, levelAtLeast, type Policy, type RequestAuditConfig, type Stage } from './policy.ts';
import { eventJson, eventLegacy, type AuditEvent } from './event.ts';
import type { LineWriter } from './backend/log-file.ts';
import type { RequestAudit } from './request-audit.ts';

export interface Auditor {
  begin(r: AuditedRequest): RequestAudit | undefined;
  close(): void;
}

/** the request as the audit sees it once its user is known */
export interface AuditedRequest {
  auditID: string;
  url: string;
  info: RequestInfo;
  user: User;
  headers: IncomingHttpHeaders;
  remoteAddress?: string;
  /** the response: long-running requests get ResponseStarted when its headers go out */
  res: { writeHead: (...a: never[]) => unknown; flushHeaders?: () => void };
  /** the body reader of the request: wrapped to keep the body for Request events */
  body: { read: () => Promise<Buffer>; replace(read: () => Promise<Buffer>): void };
}

/** the client's Audit-ID when it sent one (as kube-apiserver keeps it), else a new one */
export function auditIdOf(headers: IncomingHttpHeaders): string {
  const sent = headers['audit-id'];
  const id = Array.isArray(sent) ? sent[0] : sent;
  return id ? id : randomUUID();
}

// verbs and subresources kube-apiserver treats as long-running
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

function isLongRunning(info: RequestInfo): boolean {
  return info.verb === 'watch' || info.verb === 'proxy' || (!!info.subresource && longRunningSubresources.has(info.subresource));
}

/**
 * the user the policy is asked about: the authenticated one; without credentials, the anonymous
 * user when anonymous requests are allowed, else (a 401 follows) no one
 */
export function auditUser(user: User | undefined, sentCert: boolean, anonymous: boolean): User {
  if (user) return user;
  return !sentCert && anonymous ? { name: 'system:anonymous', groups: ['system:unauthenticated'] } : { name: '', groups: [] };
}

/** X-Forwarded-For, X-Real-Ip, then the peer, without repeats (Kubernetes' SourceIPs) */
function sourceIPs(headers: IncomingHttpHeaders, remote?: string): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined) => { const v = ip?.trim().replace(/^::ffff:(?=\d+\.)/, ''); if (v && !ips.includes(v)) ips.push(v); };
  const fwd = headers['x-forwarded-for'];
  for (const part of String(fwd ?? '').split(',')) add(part);
  add(headers['x-real-ip'] as string | undefined);
  add(remote);
  return ips;
}

/** a request or response body as the object it holds, whatever the media type it came in */
function decodeBody(contentType: string | undefined, body: Buffer | Uint8Array): unknown {
  if (!body.length) return undefined;
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const type = (contentType ?? '').split(';')[0]!.trim();
  try {
    if (type === 'application/vnd.kubernetes.protobuf') return decodeProtobufObject(buf).object;
    if (type === 'application/cbor') return decodeCborBody(buf);
    if (type.includes('yaml')) return yamlLibrary().parse(bodyText(buf));
    if (type === '' || type.includes('json')) return JSON.parse(bodyText(buf));
  } catch { /* not decodable: left out, as Kubernetes leaves out what it cannot convert */ }
  return undefined;
}

function withoutManagedFields(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const o = obj as { metadata?: Record<string, unknown>; items?: unknown[] };
  let out: Record<string, unknown> = o as Record<string, unknown>;
  if (o.metadata && 'managedFields' in o.metadata) {
    const { managedFields: _, ...metadata } = o.metadata;
    out = { ...out, metadata };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(withoutManagedFields) };
  return out;
}

export function createAuditor(policy: Policy, writer: LineWriter, format: 'json' | 'legacy' = 'json', now: () => number = Date.now): Auditor {
  const encode = format === 'legacy' ? eventLegacy : eventJson;
  return {
    begin(r) {
      const i = r.info;
      const config = evaluatePolicy(policy, {
        user: r.user, verb: i.verb, isResourceRequest: i.isResourceRequest, path: i.path,
        apiGroup: i.group, resource: i.resource, subresource: i.subresource, namespace: i.namespace, name: i.name,
      });
      if (config.level === 'None') return undefined;
      return recordRequest(r, config, e => writer.write(encode(e)), now);
    },
    close: () => writer.close(),
  };
}

function recordRequest(r: AuditedRequest, config: RequestAuditConfig, emit: (e: AuditEvent) => void, now: () => number): RequestAudit {
  const i = r.info;
  const ev: AuditEvent = {
    level: config.level, auditID: r.auditID, stage: 'RequestReceived', requestURI: r.url, verb: i.verb, user: r.user,
    sourceIPs: sourceIPs(r.headers, r.remoteAddress), userAgent: r.headers['user-agent'],
    objectRef: i.isResourceRequest ? { resource: i.resource, namespace: i.namespace, name: i.name, apiGroup: i.group, apiVersion: i.version, subresource: i.subresource } : undefined,
    requestReceived: now(), stageTime: 0, annotations: {},
  };
  const stage = (s: Stage) => {
    if (config.omitStages.has(s)) return;
    ev.stage = s;
    ev.stageTime = now();
    emit(ev);
  };
  stage('RequestReceived');
  let started = false;
  if (isLongRunning(i) && !config.omitStages.has('ResponseStarted')) {
    // the response headers going out mark ResponseStarted of a watch, exec, log stream...
    const res = r.res as { writeHead: (...a: unknown[]) => unknown; flushHeaders?: () => void };
    const writeHead = res.writeHead;
    res.writeHead = (...a: unknown[]) => { markStarted(); return writeHead.apply(res, a); };
    const flushHeaders = res.flushHeaders;
    if (flushHeaders) res.flushHeaders = () => { markStarted(); flushHeaders.call(res); };
  }
  function markStarted(): void {
    if (started) return;
    started = true;
    ev.responseStatus ??= { code: 200 };
    stage('ResponseStarted');
  }
  let requestBody: Promise<Buffer> | undefined;
  if (levelAtLeast(config.level, 'Request')) {
    const read = r.body.read;
    r.body.replace(() => (requestBody ??= read()));
  }
  let responseBody: unknown;
  let responseCode: number | undefined;
  let done = false;
  const audit: RequestAudit = {
    impersonated(user) { ev.impersonatedUser = user; },
    requestObject(obj) {
      const ref = ev.objectRef;
      const m = obj.metadata;
      if (!ref || !m) return;
      const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
      ref.namespace ||= str(m.namespace);
      ref.name ||= str(m.name);
      ref.uid ||= str(m.uid);
      ref.resourceVersion ||= str(m.resourceVersion);
    },
    authorized(decision, reason) {
      ev.annotations!['authorization.k8s.io/decision'] = decision;
      ev.annotations!['authorization.k8s.io/reason'] = reason;
    },
    status(err: StatusError) {
      const s = err.status;
      ev.responseStatus = { status: s.status, message: s.message, reason: s.reason, details: s.details, code: s.code };
    },
    response(code, contentType, body) {
      responseCode = code;
      if (config.level === 'RequestResponse') responseBody = decodeBody(contentType, body);
    },
    complete(resCode, panicked, annotations) {
      if (done) return;
      done = true;
      // an HTTP/2 answer written on its stream leaves the response's statusCode unset
      const code = responseCode ?? resCode;
      if (!ev.responseStatus?.status) ev.responseStatus = { code };
      const finish = () => {
        if (annotations) Object.assign(ev.annotations!, annotations);
        stage(panicked ? 'Panic' : 'ResponseComplete');
      };
      if (responseBody !== undefined) ev.responseObject = config.omitManagedFields ? withoutManagedFields(responseBody) : responseBody;
      if (!requestBody) { finish(); return; }
      void requestBody.then(body => {
        const obj = decodeBody(r.headers['content-type'], body);
        if (obj !== undefined) ev.requestObject = config.omitManagedFields ? withoutManagedFields(obj) : obj;
      }, () => undefined).then(() => finish());
    },
  };
  return audit;
}
