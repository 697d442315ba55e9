// The HTTP server: TLS with client certificates, HTTP/2 and HTTP/1.1 on one port, and the
// request pipeline authenticate → route → handle → respond. Wiring only; the work is elsewhere.

import type { FeatureGates } from '../api/feature-gates.ts';
import http2 from 'node:http2';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import { http } from '../streaming/node-http.ts';
import type { Duplex, Readable } from 'node:stream';
import type { Logger } from '../api/log.ts';
import { badRequest, methodNotAllowed, StatusError } from '../api/status.ts';
import { statusFromError } from '../registry/storage-errors.ts';
import type { Catalog } from '../schema/types.ts';
import type { Registry } from '../registry/registry.ts';
import type { RequestContext, ResponseLike } from './context.ts';
import { parseRequestInfo } from './request-info.ts';
import { readBody } from './body.ts';
import { sendError, sendJson, sendText } from './respond.ts';
import { routeResource } from './router.ts';
import type { HandlerDeps } from './handlers/deps.ts';
import type { AdmissionChain } from './admission/chain.ts';
import { serveNonResource } from './non-resource.ts';
import { authenticateClientCert } from './authn/client-cert.ts';
import { authorizeRequest, type RequestAuthorization } from './authz/authorize-request.ts';
import { alwaysAllow } from './authz/chain.ts';
import { registerAccessReviews } from './authz/access-reviews.ts';
import { createRequestAuthenticator } from './authn/request.ts';
import { registerAuthenticationReviews } from './authn/reviews.ts';
import type { Authentication } from './authn/setup.ts';
import type { Health } from './health.ts';
import type { Aggregator } from './aggregator/aggregator.ts';
import { auditIdOf, auditUser, type Auditor } from './audit/recorder.ts';
import { createApiServerMetrics, type ApiServerMetrics } from './metrics/apiserver-metrics.ts';
import { inflightKind } from './metrics/request-labels.ts';
import { applyHttp1Limits, closeIdleSessions, defaultServingLimits, http2Settings, serverOptions, type ServingLimits } from './serving-limits.ts';
import { defaultRequestTimeoutMs, requestDeadlineMs, requestTimedOut } from './request-timeout.ts';
import { answerRetryAfter, exemptFromRetryAfter } from './retry-after.ts';

export interface ApiServerOptions {
  catalog: Catalog;
  registry: Registry;
  health: Health;
  log: Logger;
  tls: { cert: string; key: string; ca: string };
  /** the client certificate for requests to node agents */
  nodeClientTls?: import('./node-tls.ts').NodeClientTls;
  now?: () => Date;
  /** bounds of the server-chosen watch timeout, in seconds */
  minWatchTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
  features?: FeatureGates;
  /**
   * the authorizer chain, anonymous requests and RBAC escalation checks; absent: every
   * authenticated request is allowed, and without credentials only health and /version answer
   */
  authorization?: RequestAuthorization;
  /** bearer tokens, the service account signer, issuer discovery; absent: client certificates only */
  authentication?: Authentication;
  /** the admission plugins writes pass through; absent: none */
  admission?: AdmissionChain;
  /** APIServices: remote group-versions proxied to extension API servers, their discovery merged */
  aggregator?: Aggregator;
  /** the audit policy and log (--audit-policy-file, --audit-log-path); absent: no audit events */
  audit?: Auditor;
  /** the figures /metrics shows (start.ts shares them with storage); absent: the server's own */
  metrics?: ApiServerMetrics;
  /** online copies of the database (GET /storage/snapshot) */
  snapshot?: import('./storage-snapshot.ts').SnapshotSource;
  /** header size, idle and header timeouts, HTTP/2 streams per connection (default: kube-apiserver's) */
  limits?: Partial<ServingLimits>;
  /** --request-timeout for requests that are not long-running (default 60 s) */
  requestTimeoutMs?: number;
}

export interface ApiServer {
  listen(port: number, host: string): Promise<{ port: number; url: string }>;
  /**
   * the same server on one more address (as `orch up` serves its pods on the pod bridge's
   * gateway): connections accepted there are handed to the one TLS server, so they are
   * served, counted and closed like the others
   */
  listenAlso(port: number, host: string): Promise<void>;
  /**
   * end watches cleanly and let in-flight requests finish (up to graceMs), then close. With
   * retryAfter, the listener stays open meanwhile and new requests are answered 429 (see retry-after.ts).
   */
  close(graceMs?: number, opts?: { retryAfter?: boolean }): Promise<void>;
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

const anonymousPaths = /^\/(healthz|livez|readyz)(\/|$)|^\/version\/?$/;

/**
 * The path (still escaped) and query of a request target. An absolute-form target loses its
 * scheme and host; anything else that is not a path (authority or asterisk form) is undefined.
 */
function splitTarget(target: string | undefined): { rawPath: string; query: URLSearchParams } | undefined {
  if (!target) return undefined;
  let t = target;
  if (t[0] !== '/') {
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(t);
    if (!origin) return undefined;
    t = t.slice(origin[0].length) || '/';
    if (t[0] === '?') t = `/${t}`;
  }
  const q = t.indexOf('?');
  return q < 0 ? { rawPath: t, query: new URLSearchParams() } : { rawPath: t.slice(0, q), query: new URLSearchParams(t.slice(q + 1)) };
}

export function createApiServer(opts: ApiServerOptions): ApiServer {
  const now = opts.now ?? (() => new Date());
  const minWatch = opts.minWatchTimeoutSeconds ?? 1800;
  const metrics = opts.metrics ?? createApiServerMetrics();
  const deps: HandlerDeps = {
    registry: opts.registry,
    catalog: opts.catalog,
    now,
    watchTimeoutSeconds: () => minWatch + Math.floor(Math.random() * minWatch),
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    nodeClientTls: opts.nodeClientTls,
    serviceAccountTokens: opts.authentication?.serviceAccountTokens,
    tokenAuthenticator: opts.authentication?.tokens,
    admission: opts.admission,
    metrics,
  };
  const authz = opts.authorization;
  registerAccessReviews();
  registerAuthenticationReviews();
  const authenticate = createRequestAuthenticator(authenticateClientCert, opts.authentication?.tokens, opts.log);
  const sessions = new Set<http2.ServerHttp2Session>();
  const sockets = new Set<import('node:net').Socket>();
  const extraListeners: TcpServer[] = [];
  const watches = new Set<LazyAbort>();
  const inFlightRequests = new Set<LazyAbort>(); // long-running requests, ended first on shutdown
  let active = 0;
  let address = '';
  let rejecting = false;
  const limits: ServingLimits = { ...defaultServingLimits, ...opts.limits };
  const requestTimeoutMs = opts.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const nonResource = { catalog: opts.catalog, discoveryCatalog: opts.aggregator?.discoveryCatalog, remoteOpenAPI: opts.aggregator?.openapi, health: opts.health, serverAddress: () => address, oidc: opts.authentication?.oidc, metrics: metrics.exposition, snapshot: opts.snapshot };

  const server = http2.createSecureServer({
    allowHTTP1: true,
    cert: opts.tls.cert,
    key: opts.tls.key,
    ca: opts.tls.ca,
    requestCert: true,
    rejectUnauthorized: false,
    settings: http2Settings(limits),
    ...serverOptions(limits),
  });
  applyHttp1Limits(server, limits);
  server.on('session', s => { sessions.add(s); s.on('close', () => sessions.delete(s)); closeIdleSessions(s, limits.idleTimeoutMs); });
  server.on('secureConnection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  // a CONNECT never reaches 'request' (HTTP/1.1 hands over the socket, HTTP/2 a response):
  // answer it here rather than drop the connection
  server.on('connect', (_req: unknown, out: import('node:net').Socket | http2.Http2ServerResponse) => {
    const body = JSON.stringify(methodNotAllowed().status);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (out instanceof http2.Http2ServerResponse) { out.writeHead(405, headers); out.end(body); return; }
    out.end(`HTTP/1.1 405 Method Not Allowed\r\ncontent-type: ${headers['content-type']}\r\ncontent-length: ${headers['content-length']}\r\nconnection: close\r\n\r\n${body}`);
  });
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    if (rejecting && !exemptFromRetryAfter(splitTarget(req.url)?.rawPath ?? '', req.headers)) { answerRetryAfter(req, res); return; }
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

  // an HTTP/1.1 Upgrade (WebSocket, SPDY) runs the same pipeline; its answer is written on the
  // client's connection until a subresource that relays it takes the connection over
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const abort = new LazyAbort();
    watches.add(abort); // long-running: ended, not waited for, on shutdown
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as import('node:net').Socket);
    res.once('finish', () => socket.end());
    socket.once('close', () => { watches.delete(abort); abort.abort(); });
    void handle(req as unknown as http2.Http2ServerRequest, res as unknown as ResponseLike, abort, { socket, head }).catch(err => {
      opts.log.error('request failed', { err: String(err) });
    });
  });

  async function handle(req: http2.Http2ServerRequest, res: ResponseLike, abort: LazyAbort, upgrade?: { socket: Duplex; head: Buffer }): Promise<void> {
    const method = req.method;
    const target = splitTarget(req.url);
    const query = target?.query ?? new URLSearchParams();
    const log = opts.log;
    let bodyPromise: Promise<Buffer> | undefined;
    const auditID = auditIdOf(req.headers);
    res.setHeader('Audit-ID', auditID);
    const ctx: RequestContext = {
      auditID,
      method, query, headers: req.headers, res, log,
      info: { isResourceRequest: false, path: target?.rawPath ?? '', group: '', version: '', resource: '', verb: method.toLowerCase(), parts: [] },
      body: () => (bodyPromise ??= readBody(req as unknown as Readable, undefined, abort.signal, requestTimedOut)),
      get signal() { return abort.signal; },
      warnings: [],
      features: opts.features,
      incoming: { url: req.url ?? '', body: req as unknown as Readable, remoteAddress: (req.socket ?? req.stream?.session?.socket)?.remoteAddress, upgrade },
    };
    const started = performance.now();
    let panicked = false;
    // counted once the request is known; recorded once it passed authentication and
    // authorization, as kube-apiserver's metrics never see the requests its filters refuse
    let kind: ReturnType<typeof inflightKind>;
    let admitted = false;
    let deadline: NodeJS.Timeout | undefined;
    try {
      // a target that is not a path (an authority, `*`) names nothing here
      if (!target) throw badRequest(`the request target ${JSON.stringify(req.url ?? '')} is not a path`);
      // a path that does not decode is answered before any other work
      const info = ctx.info = parseRequestInfo(method, target.rawPath, query);
      if (info.verb === 'watch') watches.add(abort);
      kind = inflightKind(info);
      if (kind) metrics.inflight.started(kind);
      // long-running requests (no in-flight kind) have their own ends; the others get --request-timeout
      if (kind && !upgrade) {
        const ms = requestDeadlineMs(query, requestTimeoutMs);
        deadline = setTimeout(() => timedOut(req, ctx, abort), ms);
      }
      // a server without authorization set up serves its health and version to anyone; with it,
      // these paths are authenticated and authorized like any other (system:public-info-viewer
      // grants them to every caller, and --anonymous-auth=false makes a caller without
      // credentials a 401 here too, as in Kubernetes)
      if (!authz && anonymousPaths.test(info.path)) {
        admitted = true;
        await serveNonResource(ctx, nonResource);
        return;
      }
      const socket = (req.socket ?? req.stream?.session?.socket) as TLSSocket | undefined;
      const user = await authenticate(socket, req.stream?.session ?? socket, req.headers);
      // a certificate sent but not trusted fails the request; none sent (and no token) is anonymous
      const sentCert = !user && !!socket?.getPeerCertificate()?.subject;
      if (opts.audit) ctx.audit = opts.audit.begin({ auditID, url: req.url ?? '', info, user: auditUser(user, sentCert, authz?.anonymous ?? false), headers: req.headers, remoteAddress: ctx.incoming?.remoteAddress, res, body: { read: ctx.body, replace: read => { ctx.body = read; } } });
      authorizeRequest(ctx, sentCert ? 'rejected' : user, req.headers, authz ?? { authorizer: alwaysAllow, anonymous: false });
      admitted = true;
      // an extension API server's group-version is relayed once orch has authorized the request
      if (opts.aggregator && await opts.aggregator.serve(ctx)) return;
      if (info.isResourceRequest) await routeResource(ctx, deps);
      else await serveNonResource(ctx, nonResource);
    } catch (err) {
      const status = statusFromError(err);
      panicked = status.code >= 500 && !(err instanceof StatusError);
      if (status.code >= 500) log.warn('request error', { method, path: ctx.info.path, err: err instanceof Error ? err.stack : String(err) });
      sendError(ctx, status);
    } finally {
      clearTimeout(deadline);
      ctx.audit?.complete(res.statusCode, panicked, ctx.auditAnnotations);
      if (kind) metrics.inflight.finished(kind);
      if (admitted) metrics.recordRequest(ctx, (performance.now() - started) / 1000);
      if (log.enabled('debug')) log.debug('request', { method, path: ctx.info.path, verb: ctx.info.verb, code: res.statusCode, ms: Math.round(performance.now() - started) });
    }
  }

  /** the 504 kube-apiserver's timeout filter writes; an answer already begun is cut off instead */
  function timedOut(req: http2.Http2ServerRequest, ctx: RequestContext, abort: LazyAbort): void {
    const res = ctx.res;
    if (!res.headersSent && !res.writableEnded) {
      // through the compatibility layer, so that the handler's later answer finds headers sent
      res.setHeader('Cache-Control', 'no-cache, private');
      if (req.httpVersionMajor < 2) res.setHeader('Connection', 'close');
      sendError(ctx, requestTimedOut());
      // HTTP/2: a body still unread ends with the answer (RST_STREAM NO_ERROR once it is sent, as Go's server ends it)
      if (req.stream && !req.stream.closed) req.stream.close(http2.constants.NGHTTP2_NO_ERROR);
    } else if (!res.writableEnded) {
      if (req.stream) req.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      else req.socket?.destroy();
    }
    abort.abort();
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
    listenAlso(port, host) {
      return new Promise((resolve, reject) => {
        const extra = createTcpServer(socket => server.emit('connection', socket));
        extra.once('error', reject);
        extra.listen(port, host, () => { extraListeners.push(extra); resolve(); });
      });
    },
    async close(graceMs = 0, closeOpts = {}) {
      // with retryAfter the listener stays open (new requests are turned away with a 429) until
      // the requests in flight are done; otherwise it stops now
      if (closeOpts.retryAfter) rejecting = true;
      const stopListening = () => { server.close(); for (const l of extraListeners) l.close(); };
      if (!rejecting) stopListening();
      // watches end as a normal end of stream (no error event), so clients list and watch again
      for (const w of watches) w.abort();
      // GOAWAY: clients open no new streams; each session closes once its streams are done
      for (const s of sessions) s.close();
      const deadline = Date.now() + graceMs;
      // wait for the ordinary requests in flight; watches were ended above
      const ordinaryInFlight = () => [...inFlightRequests].some(r => !watches.has(r));
      while (ordinaryInFlight() && Date.now() < deadline) await new Promise(r => setTimeout(r, 20));
      if (rejecting) stopListening();
      for (const s of sockets) s.destroy();
    },
    inFlight: () => active,
  };
}

export { sendJson, sendText };
