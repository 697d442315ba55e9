// Port forwarding over SPDY, the server's end, as the kubelet serves `portforward.k8s.io`: for
// each connection to a forwarded port the client opens two streams with the same `requestid`
// and `port` headers, one `streamtype: error` (which it half-closes at once and reads to the end)
// and one `streamtype: data`. A complete pair is one ForwardedConnection. Streams with a missing
// or bad port or type are reset; a pair still incomplete after the stream-creation timeout, or a
// second stream of one type, is reported on the pair's error stream in the kubelet's words.

import type { Duplex } from 'node:stream';
import type { ForwardedConnection, PortForwardStreams } from '../streams.ts';
import { AsyncQueue } from '../queue.ts';
import { DEFAULT_STREAM_CREATION_TIMEOUT_MS } from './command.ts';
import { acceptSpdyUpgrade, type UpgradeRequest } from './handshake.ts';
import { headerValue } from './header-block.ts';
import type { SpdySession } from './session.ts';
import type { SpdyStream } from './stream.ts';

export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';

export interface SpdyPortForwardOptions {
  streamCreationTimeoutMs?: number;
  /** the connection closes after this long without traffic (kubelet: --streaming-connection-idle-timeout) */
  idleTimeoutMs?: number;
}

/**
 * upgrades a port-forward request (node's 'upgrade' event) to SPDY; throws SpdyUpgradeError,
 * after answering the client, when the upgrade is refused
 */
export function acceptSpdyPortForward(req: UpgradeRequest, socket: Duplex, head: Buffer, opts: SpdyPortForwardOptions = {}): PortForwardStreams {
  const { session, protocol } = acceptSpdyUpgrade(req, socket, head, [PORT_FORWARD_PROTOCOL], opts.idleTimeoutMs);
  return portForwardOverSession(session, protocol, opts);
}

interface Pair {
  requestId: string;
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

/** the forwarded connections a client opens on an established SPDY session */
export function portForwardOverSession(session: SpdySession, protocol: string, opts: SpdyPortForwardOptions = {}): PortForwardStreams {
  const connections = new AsyncQueue<ForwardedConnection>();
  const pairs = new Map<string, Pair>();
  const timeoutMs = opts.streamCreationTimeoutMs ?? DEFAULT_STREAM_CREATION_TIMEOUT_MS;

  session.on('stream', (stream: SpdyStream) => {
    const portText = headerValue(stream.headers, 'port');
    const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
    const type = headerValue(stream.headers, 'streamtype');
    // the kubelet rejects such streams before accepting them
    if (!(port >= 1 && port <= 65535) || (type !== 'data' && type !== 'error')) { stream.reset(); return; }
    stream.reply();
    const requestId = requestIdOf(stream, type);
    let pair = pairs.get(requestId);
    if (!pair) {
      const p: Pair = {
        requestId,
        timer: setTimeout(() => {
          pairs.delete(requestId);
          p.error?.end(`(request=${requestId}) timed out waiting for streams`);
        }, timeoutMs),
      };
      pairs.set(requestId, p);
      pair = p;
    }
    if (pair[type]) {
      pair.error?.write(`error processing stream for request ${requestId}: ${type} stream already assigned`);
      stream.reset();
      return;
    }
    pair[type] = stream;
    if (type === 'error') stream.resume(); // the client sends nothing on it
    if (!pair.data || !pair.error) return;
    clearTimeout(pair.timer);
    pairs.delete(requestId);
    connections.push(forwarded(port, requestId, pair.data, pair.error));
  });
  void session.closed.then(() => {
    for (const p of pairs.values()) clearTimeout(p.timer);
    pairs.clear();
    connections.end();
  });
  return {
    protocol,
    connections,
    close: () => { void session.close(); },
    closed: session.closed,
  };
}

// clients before request ids numbered pairs by stream id: error n, data n+2 (the kubelet's fallback)
function requestIdOf(stream: SpdyStream, type: 'data' | 'error'): string {
  const id = headerValue(stream.headers, 'requestid');
  if (id !== '') return id;
  return String(type === 'error' ? stream.id : stream.id - 2);
}

function forwarded(port: number, requestId: string, data: SpdyStream, error: SpdyStream): ForwardedConnection {
  // the pair ends together: once our side of the data is done, the error stream closes empty
  data.once('finish', () => { if (!error.writableEnded) error.end(); });
  return {
    port,
    requestId,
    data,
    fail(message: string): void {
      if (!error.writableEnded) error.end(message);
      if (!data.writableEnded) data.end();
    },
  };
}
