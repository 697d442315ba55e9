// One request as the handlers see it.

import type { FeatureGates } from '../api/feature-gates.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import type { Logger } from '../api/log.ts';
import type { ResourceInfo } from '../schema/types.ts';
import type { RequestInfo } from './request-info.ts';
import type { Subresource } from '../registry/subresources/subresource.ts';
import type { Authorizer } from './authz/attributes.ts';
import type { KubeObject } from '../api/object.ts';

import type { User } from './user.ts';
import type { RequestAudit } from './audit/request-audit.ts';

export type { User };

/** the minimal response surface shared by HTTP/1.1 and HTTP/2 compatibility responses */
export interface ResponseLike {
  statusCode: number;
  setHeader(name: string, value: string | number | string[]): unknown;
  writeHead(code: number, headers: Record<string, string | number | string[]>): unknown;
  getHeader(name: string): unknown;
  write(chunk: string | Uint8Array, cb?: (err?: Error | null) => void): boolean;
  end(chunk?: string | Uint8Array): unknown;
  headersSent: boolean;
  writableEnded: boolean;
  flushHeaders?(): void;
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  once(event: string, fn: (...args: unknown[]) => void): unknown;
}

export interface RequestContext {
  method: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body(): Promise<Buffer>;
  res: ResponseLike;
  info: RequestInfo;
  /** the served resource the path names (resource requests only) */
  resource?: ResourceInfo;
  /** the implemented subresource the path names, if any */
  subresource?: Subresource;
  user?: User;
  /** the server's authorizer chain (access reviews ask it) */
  authorizer?: Authorizer;
  /** checks an object about to be written with the requester's rights (RBAC escalation) */
  admit?: (obj: KubeObject, old?: KubeObject) => void | Promise<void>;
  log: Logger;
  /** fires when the client goes away */
  signal: AbortSignal;
  /** warnings for the Warning response header */
  warnings: string[];
  /** audit annotations admission plugins left on the request */
  auditAnnotations?: Record<string, string>;
  /** the request's Audit-ID (sent back on every response) */
  auditID?: string;
  /** the audit of this request, when the audit policy logs it */
  audit?: RequestAudit;
  /** the server's feature gates; absent: every gate at its default */
  features?: FeatureGates;
  /** the UIDs flow control classified the request under, sent back on its response */
  flowUIDs?: { flowSchema: string; priorityLevel: string };
  /** a watch calls this once it is set up: flow control frees the seats it held until then */
  watchInitialized?: () => void;
  /** the request as sent, for subresources that relay it (proxy) */
  incoming?: IncomingRequest;
}

/** the request as it came in: its target, unread body and peer, and its connection when it asks to upgrade */
export interface IncomingRequest {
  /** the request target, still escaped, with its query */
  url: string;
  body: Readable;
  remoteAddress?: string;
  /** HTTP/1.1 Upgrade requests: the client's connection (the response to write to it is `res`) and the bytes read past the headers */
  upgrade?: { socket: Duplex; head: Buffer };
}
