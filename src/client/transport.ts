// The connection layer under the REST client. Over HTTPS it speaks HTTP/2, as client-go does:
// every request and every watch of a client share one TLS connection, where HTTP/1.1 needs a
// connection per open watch (a controller manager watches some sixty resources, and each
// connection holds TLS buffers at both ends). A server that does not offer h2 in ALPN gets
// HTTP/1.1 with keep-alive agents instead, as does plain HTTP; there, watches get their own agent
// so that long-lived streams never take the sockets ordinary requests queue for.

import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { http } from '../streaming/node-http.ts';
import https from 'node:https';
import http2 from 'node:http2';
import type { Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import type { ClientConfig } from './kubeconfig.ts';
import { certFingerprint } from './cert-files.ts';

const idempotent = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
// what may be sent again without proof that the server never saw it (Go's isReplayable): a reset
// of a reused HTTP/1.1 connection may come after the server acted, and a DELETE sent again would
// answer 404 for the caller's own delete
const replayable = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RawResponse { statusCode: number; headers: IncomingHttpHeaders; body: string }

/** a response being read as a stream: its status, headers and body */
export interface StreamResponse { statusCode: number; headers: IncomingHttpHeaders; body: Readable }

export interface StreamHandlers {
  onResponse(res: StreamResponse): void;
  /** the request failed before a response arrived */
  onError(err: Error): void;
}

export interface Transport {
  /** one request, its whole response body as text */
  send(method: string, path: string, headers: Record<string, string>, body?: Buffer, timeoutMs?: number): Promise<RawResponse>;
  /** a bodiless request whose response the caller reads as a stream; close() abandons it */
  stream(method: string, path: string, headers: Record<string, string>, handlers: StreamHandlers): { close(): void };
  /**
   * new credentials from now on (a rotated client certificate, a refreshed token). A new
   * certificate closes the connections made with the old one, as client-go's and the kubelet's
   * rotation does (CloseAll): open streams (watches) end at once, so that their owners open them
   * again as the new identity; requests already sent are answered first, within a minute.
   */
  setCredentials(c: Credentials): void;
  close(): void;
}

export interface Credentials { cert?: Buffer; key?: Buffer; token?: string }

interface Connection {
  send: Transport['send'];
  stream: Transport['stream'];
  /**
   * later requests use fresh connections (and so the current TLS context); the streams open on
   * the old ones end now, and what else they carry gets `graceMs` to finish
   */
  renew(graceMs?: number): void;
  close(): void;
}

export function createTransport(cfg: ClientConfig, opts: { maxSockets?: number } = {}): Transport {
  const base = new URL(cfg.server);
  const secure = base.protocol === 'https:';
  if (!secure && base.protocol !== 'http:') throw new Error(`unsupported server URL ${cfg.server}`);
  const auth: Record<string, string> = cfg.token ? { authorization: `Bearer ${cfg.token}` } : {};
  let tlsMaterial = { ca: cfg.ca, cert: cfg.cert, key: cfg.key };
  const target: Target = {
    base, secure, auth,
    prefix: base.pathname.replace(/\/+$/, ''),
    host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(base.port || (secure ? 443 : 80)),
    // one secure context for every connection: building it parses the key and certificates,
    // which costs more than the handshake itself when connections come and go
    tls: secure
      ? { secureContext: createSecureContext(tlsMaterial), servername: cfg.tlsServerName, rejectUnauthorized: !cfg.insecureSkipTLSVerify }
      : {},
  };
  if (!secure) {
    const plain = http1(target, opts.maxSockets ?? 32);
    return { ...plain, setCredentials(c) { if (c.token !== undefined) target.auth.authorization = `Bearer ${c.token}`; } };
  }
  // HTTP/2 until the server shows it does not speak it (no h2 in ALPN); then HTTP/1.1 for good,
  // and what failed on the way is sent again there. The request's error comes a moment before
  // the connection's, hence the look one turn later.
  let conn: Connection = http2Connection(target, () => {
    conn.close();
    conn = http1(target, opts.maxSockets ?? 32);
  });
  const switched = async (used: Connection) => { await new Promise(r => setImmediate(r)); return conn !== used; };
  return {
    send(...args) {
      const used = conn;
      return used.send(...args).catch(async err => { if (await switched(used)) return conn.send(...args); throw err; });
    },
    stream(method, path, headers, handlers) {
      const used = conn;
      let handle = used.stream(method, path, headers, {
        onResponse: res => handlers.onResponse(res),
        onError: err => void switched(used).then(yes => { if (yes) handle = conn.stream(method, path, headers, handlers); else handlers.onError(err); }),
      });
      return { close: () => handle.close() };
    },
    setCredentials(c) {
      if (c.token !== undefined) target.auth.authorization = `Bearer ${c.token}`;
      // the same certificate again (read back from the file it was just written to) changes nothing
      if (c.cert && c.key && secure && (certFingerprint(c.cert) ?? 'new') !== certFingerprint(tlsMaterial.cert)) {
        tlsMaterial = { ...tlsMaterial, cert: c.cert, key: c.key };
        target.tls.secureContext = createSecureContext(tlsMaterial);
        conn.renew();
      }
    },
    close: () => conn.close(),
  };
}

interface Target {
  base: URL;
  secure: boolean;
  prefix: string;
  host: string;
  port: number;
  auth: Record<string, string>;
  tls: { secureContext?: import('node:tls').SecureContext; servername?: string; rejectUnauthorized?: boolean };
}

function collect(body: Readable, statusCode: number, headers: IncomingHttpHeaders, resolve: (r: RawResponse) => void, reject: (e: Error) => void): void {
  const chunks: Buffer[] = [];
  body.on('data', (c: Buffer) => chunks.push(c));
  body.on('end', () => resolve({ statusCode, headers, body: Buffer.concat(chunks).toString('utf8') }));
  body.on('error', reject);
  // a close without an end is a body cut short (after an end, the promise is settled already)
  body.on('close', () => reject(new Error(`the connection closed before the whole response (HTTP ${statusCode}) was read`)));
}

const connectErrors = new WeakMap<http2.ClientHttp2Session, NodeJS.ErrnoException>();

/** the error of a request whose connection went before it was answered; ECONNREFUSED when it never connected */
function connectionLost(method: string, path: string, s: http2.ClientHttp2Session): Error {
  const cause = connectErrors.get(s);
  const err: NodeJS.ErrnoException = new Error(`${method} ${path}: the connection closed before a response${cause ? ` (${cause.message})` : ''}`);
  if (cause?.code) err.code = cause.code;
  return err;
}

/** how long requests sent with an old certificate may take to be answered before their connection goes */
const renewGraceMs = 60_000;

// The flow-control windows Go's HTTP/2 client (client-go, kubectl) opens: 4 MiB per stream, 1 GiB
// per connection. With Node's 64 KiB for both, every watch and list of a client shares 64 KiB in
// flight, so a busy pod watch falls behind by a window update per round trip and large lists crawl.
const streamWindow = 4 << 20;
const connectionWindow = 1 << 30;

function http2Connection(t: Target, notSpoken: () => void): Connection {
  let session: http2.ClientHttp2Session | undefined;
  // the long-lived streams (watches) of each session, which a renewal ends
  const streams = new WeakMap<http2.ClientHttp2Session, Set<http2.ClientHttp2Stream>>();
  let open = 0;
  let closed = false;
  let fellBack = false;
  const origin = `https://${t.base.host}`;

  function current(): http2.ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const s = http2.connect(origin, {
      ...t.tls, host: t.host, port: t.port,
      // no h2 in the server's answer: the connection fails, and the caller goes to HTTP/1.1
      ALPNProtocols: ['h2'],
      settings: { initialWindowSize: streamWindow },
    });
    let connected = false;
    s.once('connect', () => { connected = true; s.setLocalWindowSize(connectionWindow); });
    s.on('error', (err: NodeJS.ErrnoException) => {
      // kept for the requests it ends: a connection never made is a request surely not sent
      if (!connected) connectErrors.set(s, err);
      if (!fellBack && (err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || /no application protocol/i.test(err.message))) { fellBack = true; notSpoken(); }
    });
    s.on('close', () => { if (session === s) session = undefined; });
    s.on('goaway', () => { if (session === s) session = undefined; });
    s.unref(); // idle, the connection keeps nobody alive; a request in flight refs it
    session = s;
    return s;
  }

  // a request in flight keeps the process alive, as an HTTP/1.1 socket in use does
  const begin = (s: http2.ClientHttp2Session) => { if (open++ === 0) s.ref(); };
  const end = (s: http2.ClientHttp2Session) => { if (--open === 0 && !s.destroyed) s.unref(); };

  function request(method: string, path: string, headers: Record<string, string>, endStream: boolean): { s: http2.ClientHttp2Session; req: http2.ClientHttp2Stream } {
    const s = current();
    const req = s.request({ ...t.auth, ...headers, ':method': method, ':path': t.prefix + path }, { endStream });
    begin(s);
    let counted = true;
    req.once('close', () => { if (counted) { counted = false; end(s); } });
    return { s, req };
  }

  return {
    send(method, path, headers, body, timeoutMs) {
      const attempt = (retried: boolean): Promise<RawResponse> => new Promise((resolve, reject) => {
        if (closed) return reject(new Error('the client is closed'));
        const { s, req } = request(method, path, body ? { ...headers, 'content-length': String(body.length) } : headers, !body);
        let responded = false;
        let timedOut = false;
        req.on('response', h => {
          responded = true;
          const { ':status': status, ...rest } = h;
          collect(req, Number(status), rest as IncomingHttpHeaders, resolve, reject);
        });
        if (timeoutMs) req.setTimeout(timeoutMs, () => { timedOut = true; req.close(http2.constants.NGHTTP2_CANCEL, () => reject(new Error(`${method} ${path}: no response within ${timeoutMs}ms`))); });
        // a session that ends (the server killed, the network cut) closes its streams without an
        // error; nothing else would ever settle this request (its timeout goes with the stream).
        // Whether the server acted on it is unknown, so it is not sent again.
        req.once('close', () => { if (!responded && !timedOut) reject(connectionLost(method, path, s)); });
        req.on('error', (err: NodeJS.ErrnoException) => {
          // the server refused the stream, or it never left (no stream id yet, or made on a
          // session already going away): the server never acted on it, so an idempotent request
          // is safe to send again on a fresh connection. A session that merely ended is no such
          // proof: a server killed after it acted ends it too, and a DELETE sent again would
          // answer 404 for the caller's own delete.
          const unsent = req.pending || err.code === 'ERR_HTTP2_GOAWAY_SESSION' || (err.code === 'ERR_HTTP2_STREAM_ERROR' && req.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM);
          if (!retried && !responded && idempotent.has(method) && unsent) {
            if (session === s) session = undefined;
            return resolve(attempt(true));
          }
          reject(err);
        });
        if (body) req.end(body);
      });
      return attempt(false);
    },
    stream(method, path, headers, handlers) {
      const { s, req } = request(method, path, headers, true);
      let open = streams.get(s);
      if (!open) streams.set(s, open = new Set());
      open.add(req);
      req.once('close', () => open.delete(req));
      let settled = false;
      req.on('response', h => {
        settled = true;
        const { ':status': status, ...rest } = h;
        handlers.onResponse({ statusCode: Number(status), headers: rest as IncomingHttpHeaders, body: req });
      });
      req.on('error', err => { if (!settled) { settled = true; handlers.onError(err); } });
      // as for send: a stream closed with its session, before any answer, is told so
      req.once('close', () => { if (!settled) { settled = true; handlers.onError(connectionLost(method, path, s)); } });
      return { close: () => { settled = true; if (!req.destroyed) req.close(http2.constants.NGHTTP2_CANCEL); } };
    },
    renew(graceMs = renewGraceMs) {
      const old = session;
      session = undefined;
      if (!old) return;
      for (const req of streams.get(old) ?? []) if (!req.destroyed) req.close(http2.constants.NGHTTP2_CANCEL);
      // no new streams on it; it closes once the requests in flight are answered, or at the grace's end
      old.close();
      setTimeout(() => { if (!old.destroyed) old.destroy(); }, graceMs).unref();
    },
    close() {
      closed = true;
      session?.destroy();
      session = undefined;
    },
  };
}

function http1(t: Target, maxSockets: number): Connection {
  const makeAgent = (max: number) => t.secure
    ? new https.Agent({ keepAlive: true, maxSockets: max, ...t.tls })
    : new http.Agent({ keepAlive: true, maxSockets: max });
  let agent = makeAgent(maxSockets);
  let watchAgent = makeAgent(Infinity);
  const open = (a: Agent, method: string, path: string, headers: Record<string, string>, cb: (res: IncomingMessage) => void) =>
    (t.secure ? https : http).request({ host: t.host, port: t.port, method, path: t.prefix + path, agent: a, headers: { ...t.auth, ...headers }, ...t.tls }, cb);

  return {
    send(method, path, headers, body, timeoutMs) {
      const attempt = (retried: boolean): Promise<RawResponse> => new Promise((resolve, reject) => {
        const req = open(agent, method, path, body ? { ...headers, 'content-length': String(body.length) } : headers, res =>
          collect(res, res.statusCode ?? 0, res.headers, resolve, reject));
        if (timeoutMs) req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: no response within ${timeoutMs}ms`)));
        req.on('error', (err: NodeJS.ErrnoException) => {
          // the server closed an idle keep-alive connection just as we reused it, or went away
          // after reading the request: only a read is safe to send again
          if (!retried && req.reusedSocket && err.code === 'ECONNRESET' && replayable.has(method)) return resolve(attempt(true));
          reject(err);
        });
        req.end(body);
      });
      return attempt(false);
    },
    stream(method, path, headers, handlers) {
      const req = open(watchAgent, method, path, headers, res => handlers.onResponse({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res }));
      req.on('error', err => handlers.onError(err));
      req.end();
      return { close: () => req.destroy() };
    },
    renew(graceMs = renewGraceMs) {
      // watches (each on a socket of its own) end now; the other requests' sockets finish what
      // they carry, and go at the grace's end
      const old = agent;
      watchAgent.destroy();
      agent = makeAgent(maxSockets);
      watchAgent = makeAgent(Infinity);
      setTimeout(() => old.destroy(), graceMs).unref();
    },
    close() {
      agent.destroy();
      watchAgent.destroy();
    },
  };
}
