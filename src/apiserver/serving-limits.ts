// Limits on connections, as kube-apiserver's Go http.Server sets them: the size of a request's
// header section, how long a client may take to send it, how long an idle connection is kept,
// and how many streams one HTTP/2 connection may hold. No client holds a connection without
// sending, and none sends an unbounded header section.

import { constants } from 'node:http2';
import type http2 from 'node:http2';

export interface ServingLimits {
  /** Go's MaxHeaderBytes in kube-apiserver: the request line and headers (HTTP/1.1), the header list (HTTP/2) */
  maxHeaderBytes: number;
  /** --http2-max-streams-per-connection */
  http2MaxStreamsPerConnection: number;
  /** an HTTP/1.1 connection between requests, or an HTTP/2 connection with no open stream, is closed after this */
  idleTimeoutMs: number;
  /** a request's header section must have arrived this long after it began (Go's ReadHeaderTimeout) */
  requestHeaderTimeoutMs: number;
}

export const defaultServingLimits: ServingLimits = {
  maxHeaderBytes: 1 << 20,
  // kube-apiserver's own default is 100 streams (Go opens another connection when one is full);
  // orch's clients multiplex every watch on one connection, and aggregated servers use 1000
  http2MaxStreamsPerConnection: 1000,
  // Go's http.DefaultTransport keeps idle connections this long; the server matches it
  idleTimeoutMs: 90_000,
  // just shy of the 34 s upper bound of kube-apiserver's request timeouts
  requestHeaderTimeoutMs: 32_000,
};

// Go's HTTP/2 server adds room for a few fields' HPACK overhead (32 bytes each) to MaxHeaderBytes
const headerListOverhead = 10 * 32;
// kube-apiserver reads frames of up to 256 KiB: most objects fit in one, and a client that frames
// headers by the peer's size (Go's) can send a full header list within nghttp2's cap on CONTINUATION frames
const maxFrameSize = 256 * 1024;

/** the HTTP/2 SETTINGS the server announces */
export function http2Settings(limits: ServingLimits): http2.Settings {
  return {
    maxConcurrentStreams: limits.http2MaxStreamsPerConnection,
    maxHeaderListSize: limits.maxHeaderBytes + headerListOverhead,
    maxFrameSize,
  };
}

/** options of the server itself: how often HTTP/1.1 connections are checked against the header timeout */
export function serverOptions(limits: ServingLimits): { connectionsCheckingInterval: number } {
  return { connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(limits.requestHeaderTimeoutMs / 4))) };
}

interface Http1Knobs { maxHeaderSize?: number; headersTimeout: number; keepAliveTimeout: number; requestTimeout: number }

/**
 * HTTP/1.1 connections (served by Node's HTTP/1 server inside the HTTP/2 one): a header section
 * over the limit is answered 431 and the connection closed, as Go answers it; a header section
 * that has not arrived in time is answered 408 and closed; an idle keep-alive connection is closed.
 */
export function applyHttp1Limits(server: http2.Http2SecureServer, limits: ServingLimits): void {
  const s = server as unknown as Http1Knobs;
  s.maxHeaderSize = limits.maxHeaderBytes;
  s.headersTimeout = limits.requestHeaderTimeoutMs;
  s.keepAliveTimeout = limits.idleTimeoutMs;
  // the whole of a request's body is bounded by --request-timeout instead (a 504 Status);
  // Node requires this to be 0 or above the header timeout
  s.requestTimeout = 0;
}

// the highest stream id: a GOAWAY naming it refuses nothing the client has sent
const anyStream = 2 ** 31 - 1;
const goAwayGraceMs = 1000;

/**
 * HTTP/2 connections: one with no open stream for idleTimeoutMs goes away (Go's IdleTimeout); a
 * connection that opens no stream at all is idle from its start. It goes as Go's server shuts one
 * down: a first GOAWAY refuses nothing (a request the client is sending at that moment is still
 * served), and a moment later the final GOAWAY, closing once the streams left are done.
 */
export function closeIdleSessions(session: http2.ServerHttp2Session, idleTimeoutMs: number): void {
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const goAway = () => {
    if (open > 0 || session.closed || session.destroyed) return;
    session.goaway(constants.NGHTTP2_NO_ERROR, anyStream);
    // (a PING sent after a GOAWAY goes unanswered by Node's client: a second stands in for the round trip)
    setTimeout(() => { if (!session.closed && !session.destroyed) session.close(); }, goAwayGraceMs).unref();
  };
  const arm = () => {
    timer = setTimeout(goAway, idleTimeoutMs);
    timer.unref();
  };
  session.on('stream', (stream: http2.ServerHttp2Stream) => {
    open++;
    clearTimeout(timer);
    stream.once('close', () => { if (--open === 0 && !session.closed) arm(); });
  });
  session.once('close', () => clearTimeout(timer));
  arm();
}
