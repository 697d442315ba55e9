// One request as the handlers see it.

import type { FeatureGates } from '../api/feature-gates.ts';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Logger } from '../api/log.ts';
import type { ResourceInfo } from '../schema/types.ts';
import type { RequestInfo } from './request-info.ts';
import type { Subresource } from '../registry/subresources/subresource.ts';
import type { Duplex } from 'node:stream';

export interface User {
  name: string;
  groups: string[];
}

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

/** the upgrade a client asked for, as the server's 'upgrade' event handed it over */
export interface UpgradeRequest {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
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
  log: Logger;
  /** fires when the client goes away */
  signal: AbortSignal;
  /** warnings for the Warning response header */
  warnings: string[];
  /** the server's feature gates; absent: every gate at its default */
  features?: FeatureGates;
  /** the client's upgrade (HTTP/1.1 `Upgrade:`), for connect subresources to relay */
  upgrade?: UpgradeRequest;
}
