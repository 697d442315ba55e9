// The HTTP server: TLS with client certificates, HTTP/2 and HTTP/1.1 on one port, and the
// request pipeline authenticate → route → handle → respond. Wiring only; the work is elsewhere.

import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Readable } from 'node:stream';
import type { Logger } from '../api/log.ts';
import { StorageError } from '../storage/interface.ts';
import { toStatusError, unauthorized, serviceUnavailable } from '../api/status.ts';
import type { Catalog } from '../schema/types.ts';
import type { GenericStore } from '../registry/store.ts';
import type { RequestContext, ResponseLike } from './context.ts';
import { parseRequestInfo } from './request-info.ts';
import { readBody } from './body.ts';
import { sendError, sendJson, sendText } from './respond.ts';
import { routeResource } from './router.ts';
import type { HandlerDeps } from './handlers/deps.ts';
import { serveNonResource } from './non-resource.ts';
import { authenticateClientCert } from './authn/client-cert.ts';
import type { Health } from './health.ts';

export interface ApiServerOptions {
  catalog: Catalog;
  store: GenericStore;
  health: Health;
  log: Logger;
  tls: { cert: string; key: string; ca: string };
  /** the client certificate for requests to node agents */
  nodeClientTls?: { cert: string; key: string };
  now?: () => Date;
  /** bounds of the server-chosen watch timeout, in seconds */
  minWatchTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
}

export interface ApiServer {
  listen(port: number, host: string): Promise<{ port: number; url: string }>;
  /** stop accepting, let in-flight requests finish (up to graceMs), then close watches */
  close(graceMs?: number): Promise<void>;
  inFlight(): number;
}

/** an AbortController made only when someone listens: most requests never need one */
class LazyAbort {
  private controller?: AbortController;
  private aborted = false;
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted) this.controller.abort();
    return this.controller.signal;
  }
  abort(): void {
    this.aborted = true;
    this.controller?.abort();
  }
}

const base = new URL('https://localhost');

const anonymousPaths = /^\/(healthz|livez|readyz)(\/|$)|^\/version\/?$/;

export function createApiServer(opts: ApiServerOptions): ApiServer {
  const now = opts.now ?? (() => new Date());
  const minWatch = opts.minWatchTimeoutSeconds ?? 1800;
  const deps: HandlerDeps = {
    store: opts.store,
    catalog: opts.catalog,
    now,
    watchTimeoutSeconds: () => minWatch + Math.floor(Math.random() * minWatch),
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    nodeClientTls: opts.nodeClientTls,
  };
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<import('node:net').Socket>();
  const watches = new Set<LazyAbort>();
  const inFlightRequests = new Set<LazyAbort>(); // long-running requests, ended first on shutdown
  let active = 0;
  let address = '';
  const nonResource = { catalog: opts.catalog, health: opts.health, serverAddress: () => address };

  const server = http2.createSecureServer({
    allowHTTP1: true,
    cert: opts.tls.cert,
    key: opts.tls.key,
    ca: opts.tls.ca,
    requestCert: true,
    rejectUnauthorized: false,
    settings: { maxConcurrentStreams: 1000 },
  });
  server.on('session', s => { sessions.add(s); s.on('close', () => sessions.delete(s)); });
  server.on('secureConnection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)); });

  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    active++;
    const abort = new LazyAbort();
    inFlightRequests.add(abort);
    let open = true;
    const done = () => {
      if (!open) return;
      open = false;
      active--;
      inFlightRequests.delete(abort);
      watches.delete(abort);
      abort.abort();
    };
    res.once('finish', done);
    res.once('close', done);
    void handle(req, res as unknown as ResponseLike, abort).catch(err => {
      opts.log.error('request failed', { err: String(err) });
    });
  });

  async function handle(req: http2.Http2ServerRequest, res: ResponseLike, abort: LazyAbort): Promise<void> {
    const url = new URL(req.url, base);
    const query = url.searchParams;
    const method = req.method;
    const info = parseRequestInfo(method, url.pathname, query);
    const log = opts.log;
    let bodyPromise: Promise<Buffer> | undefined;
    const ctx: RequestContext = {
      method, url, query, headers: req.headers, res, info, log,
      body: () => (bodyPromise ??= readBody(req as unknown as Readable)),
      get signal() { return abort.signal; },
      warnings: [],
    };
    const started = performance.now();
    if (info.verb === 'watch') watches.add(abort);
    try {
      if (anonymousPaths.test(url.pathname)) {
        await serveNonResource(ctx, nonResource);
        return;
      }
      const socket = (req.socket ?? req.stream?.session?.socket) as TLSSocket | undefined;
      ctx.user = socket ? authenticateClientCert(socket, req.stream?.session ?? socket) : undefined;
      if (!ctx.user) throw unauthorized();
      if (info.isResourceRequest) await routeResource(ctx, deps);
      else await serveNonResource(ctx, nonResource);
    } catch (err) {
      const status = err instanceof StorageError && err.code === 'unavailable' ? serviceUnavailable(`storage is unavailable: ${err.message}`) : toStatusError(err);
      if (status.code >= 500) log.warn('request error', { method, path: url.pathname, err: err instanceof Error ? err.stack : String(err) });
      sendError(ctx, status);
    } finally {
      if (log.enabled('debug')) log.debug('request', { method, path: url.pathname, verb: info.verb, code: res.statusCode, ms: Math.round(performance.now() - started) });
    }
  }

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const a = server.address() as AddressInfo;
          const h = a.family === 'IPv6' ? `[${a.address}]` : a.address;
          address = `${h}:${a.port}`;
          resolve({ port: a.port, url: `https://${h}:${a.port}` });
        });
      });
    },
    async close(graceMs = 0) {
      server.close();
      for (const w of watches) w.abort();
      // GOAWAY: clients open no new streams; each session closes once its streams are done
      for (const s of sessions) s.close();
      const deadline = Date.now() + graceMs;
      // wait for the ordinary requests in flight; watches were ended above
      const ordinaryInFlight = () => [...inFlightRequests].some(r => !watches.has(r));
      while (ordinaryInFlight() && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      for (const s of sockets) s.destroy();
    },
    inFlight: () => active,
  };
}

export { sendJson, sendText };
