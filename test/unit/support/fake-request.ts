// One API request run through the router and handlers in this process, with no socket: the
// response is recorded (status, headers, bytes) as a client would receive it. Errors become
// Status responses the way the server does it.

import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/api/log.ts';
import type { RequestContext, ResponseLike } from '../../../src/apiserver/context.ts';
import type { HandlerDeps } from '../../../src/apiserver/handlers/deps.ts';
import { parseRequestInfo } from '../../../src/apiserver/request-info.ts';
import { sendError } from '../../../src/apiserver/respond.ts';
import { routeResource } from '../../../src/apiserver/router.ts';
import { GenericStore } from '../../../src/registry/store.ts';
import { strategyFor } from '../../../src/registry/strategies.ts';
import { statusFromError } from '../../../src/registry/storage-errors.ts';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';

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
}

export interface TestApi {
  deps: HandlerDeps;
  request(method: string, target: string, opts?: RequestOptions): Promise<Recorded>;
  close(): Promise<void>;
}

/** a registry over SQLite and the watch cache in a temporary directory, with fixed uids and clock */
export async function testApi(): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-handlers-'));
  const storage = createCacher(await openSqliteStorage({ path: join(dir, 'db.sqlite') }), { freshWaitMs: 200 });
  const catalog = createCatalog();
  let uid = 0;
  const clock = { now: () => new Date('2026-01-02T03:04:05Z') };
  const registry = new GenericStore({ storage, strategyFor, clock, uid: () => `uid-${++uid}`, random: () => 0.5 });
  const deps: HandlerDeps = { registry, catalog, now: clock.now, watchTimeoutSeconds: () => 60, bookmarkIntervalMs: 60_000 };
  return {
    deps,
    async request(method, target, opts = {}) {
      const [rawPath, q = ''] = target.split('?') as [string, string?];
      const query = new URLSearchParams(q);
      const res = new RecordingResponse();
      const body = opts.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
      const headers = { 'content-type': 'application/json', ...Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])) };
      const ctx: RequestContext = {
        method, query, headers, res, log: silentLogger, warnings: [],
        body: async () => body,
        info: { path: rawPath } as RequestContext['info'],
        signal: opts.signal ?? new AbortController().signal,
        user: { name: 'tester', groups: ['system:masters'] },
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
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
