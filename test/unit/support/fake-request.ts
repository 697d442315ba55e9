// One API request run through the router and handlers in this process, with no socket: the
// response is recorded (status, headers, bytes) as a client would receive it. Errors become
// Status responses the way the server does it.

import { EventEmitter } from 'node:events';
import { silentLogger } from '../../../src/api/log.ts';
import type { RequestContext, ResponseLike } from '../../../src/apiserver/context.ts';
import type { HandlerDeps } from '../../../src/apiserver/handlers/deps.ts';
import { parseRequestInfo } from '../../../src/apiserver/request-info.ts';
import { sendError } from '../../../src/apiserver/respond.ts';
import { routeResource } from '../../../src/apiserver/router.ts';
import { testRegistry } from './registry.ts';
import { buildAdmissionChain } from '../../../src/apiserver/admission/chain.ts';
import type { FeatureGates } from '../../../src/api/feature-gates.ts';
import type { Storage } from '../../../src/storage/interface.ts';
import type { User } from '../../../src/apiserver/user.ts';
import type { Authorizer } from '../../../src/apiserver/authz/attributes.ts';
import { statusFromError } from '../../../src/registry/storage-errors.ts';
import type { StoreDeps } from '../../../src/registry/store.ts';

export interface Recorded {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: Buffer;
  text(): string;
  json(): any;
}

class RecordingResponse extends EventEmitter implements ResponseLike {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  headers: Record<string, string | number | string[]> = {};
  chunks: Buffer[] = [];
  finished = new Promise<void>(resolve => this.once('finish', resolve));
  setHeader(name: string, value: string | number | string[]) { this.headers[name.toLowerCase()] = value; return this; }
  getHeader(name: string) { return this.headers[name.toLowerCase()]; }
  writeHead(code: number, headers: Record<string, string | number | string[]>) {
    this.statusCode = code;
    for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.headersSent = true;
    return this;
  }
  flushHeaders() { this.headersSent = true; }
  write(chunk: string | Uint8Array, cb?: (err?: Error | null) => void) {
    this.headersSent = true;
    this.chunks.push(Buffer.from(chunk));
    cb?.();
    return true;
  }
  end(chunk?: string | Uint8Array) {
    if (chunk !== undefined) this.chunks.push(Buffer.from(chunk));
    this.headersSent = true;
    this.writableEnded = true;
    this.emit('finish');
    return this;
  }
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** aborts the request (a watch) when it fires */
  signal?: AbortSignal;
  /** the requester (default: the test's user, else an administrator) */
  user?: RequestContext['user'];
}

export interface TestApi {
  deps: HandlerDeps;
  /** the storage under the registry, for writing what the registry never would (corrupt bytes) */
  storage: Storage;
  request(method: string, target: string, opts?: RequestOptions): Promise<Recorded>;
  close(): Promise<void>;
}

/** the router and handlers over a test registry (SQLite and the watch cache, fixed uids and clock) */
export async function testApi(opts: { features?: FeatureGates; admission?: string[]; pluginConfig?: Record<string, unknown>; user?: User; authorizer?: Authorizer; store?: Partial<StoreDeps> } = {}): Promise<TestApi> {
  const reg = await testRegistry(opts.store);
  const deps: HandlerDeps = { registry: reg.store, catalog: reg.catalog, now: reg.clock.now, watchTimeoutSeconds: () => 60, bookmarkIntervalMs: 60_000 };
  // admission only when a test names the plugins it wants (most tests write into namespaces they never made)
  if (opts.admission) deps.admission = buildAdmissionChain(opts.admission, { registry: reg.store, catalog: reg.catalog, now: reg.clock.now, random: () => 0.5, features: opts.features, pluginConfig: opts.pluginConfig });
  return {
    deps,
    storage: reg.storage,
    async request(method, target, req = {}) {
      const [rawPath, q = ''] = target.split('?') as [string, string?];
      const query = new URLSearchParams(q);
      const res = new RecordingResponse();
      const body = req.body === undefined ? Buffer.alloc(0) : req.body instanceof Uint8Array ? Buffer.from(req.body) : Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
      const headers = { 'content-type': 'application/json', ...Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])) };
      const ctx: RequestContext = {
        method, query, headers, res, log: silentLogger, warnings: [],
        body: async () => body,
        info: { path: rawPath } as RequestContext['info'],
        signal: req.signal ?? new AbortController().signal,
        user: req.user ?? opts.user ?? { name: 'tester', groups: ['system:masters'] },
        authorizer: opts.authorizer,
        features: opts.features,
      };
      try {
        ctx.info = parseRequestInfo(method, rawPath, query);
        await routeResource(ctx, deps);
      } catch (err) {
        sendError(ctx, statusFromError(err));
      }
      if (!res.writableEnded) await res.finished;
      const out = Buffer.concat(res.chunks);
      return { status: res.statusCode, headers: res.headers, body: out, text: () => out.toString('utf8'), json: () => JSON.parse(out.toString('utf8')) };
    },
    close: () => reg.close(),
  };
}
