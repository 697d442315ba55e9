// SPDY tunnelled in WebSocket, the port-forward transport of kubectl 1.31 and later: the client
// asks for a WebSocket with subprotocols `SPDY/3.1+<stream protocol>`, and once upgraded the
// WebSocket's binary messages carry the SPDY session's bytes (message boundaries mean nothing).
// kube-apiserver answers with the prefix kept on the protocol it chose, and 400 "unable to
// upgrade: no tunneling spdy protocols provided" when the client offered none.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { wsLibrary } from '../websocket/ws-library.ts';
import type { PortForwardStreams } from '../streams.ts';
import { SpdyUpgradeError, negotiateProtocol } from './handshake.ts';
import { writeHttpError } from '../http-error.ts';
import { PORT_FORWARD_PROTOCOL, portForwardOverSession, type SpdyPortForwardOptions } from './portforward.ts';
import { SpdySession } from './session.ts';

export const SPDY_TUNNEL_PREFIX = 'SPDY/3.1+';

/** the tunnelled stream protocols a client offered (prefix removed), as kube-apiserver filters them */
export function tunnelledProtocols(offered: Iterable<string>): string[] {
  return [...offered].filter(p => p.startsWith(SPDY_TUNNEL_PREFIX) && p.endsWith('.k8s.io')).map(p => p.slice(SPDY_TUNNEL_PREFIX.length));
}

/** whether an upgrade request asks for SPDY tunnelled in WebSocket */
export function isSpdyTunnelRequest(req: IncomingMessage): boolean {
  if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return tunnelledProtocols(subprotocols(req)).length > 0;
}

function subprotocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '').split(',').map(s => s.trim()).filter(s => s !== '');
}

/** the session of a WebSocket already upgraded with a `SPDY/3.1+portforward.k8s.io` subprotocol */
export function acceptTunnelledPortForward(ws: WebSocket, opts: SpdyPortForwardOptions & { protocol?: string } = {}): PortForwardStreams {
  const session = new SpdySession(webSocketBytes(ws), { server: true, idleTimeoutMs: opts.idleTimeoutMs });
  return portForwardOverSession(session, opts.protocol ?? (ws.protocol || SPDY_TUNNEL_PREFIX + PORT_FORWARD_PROTOCOL), opts);
}

/**
 * completes the WebSocket upgrade of a tunnelled port-forward request (node's 'upgrade' event)
 * and hands back its connections; refuses with the API server's 400 when no tunnelled
 * `portforward.k8s.io` was offered (SpdyUpgradeError, after answering)
 */
export function acceptTunnelledPortForwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, opts: SpdyPortForwardOptions = {}): Promise<PortForwardStreams> {
  const offered = tunnelledProtocols(subprotocols(req));
  if (offered.length === 0) {
    const message = 'unable to upgrade: no tunneling spdy protocols provided';
    writeHttpError(socket, 400, message);
    return Promise.reject(new SpdyUpgradeError(400, message));
  }
  const chosen = negotiateProtocol(offered, [PORT_FORWARD_PROTOCOL]);
  if (chosen === '') {
    const message = `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${PORT_FORWARD_PROTOCOL}]`;
    writeHttpError(socket, 403, message, [['X-Accepted-Stream-Protocol-Versions', PORT_FORWARD_PROTOCOL]]);
    return Promise.reject(new SpdyUpgradeError(403, message));
  }
  // ws holds subprotocols to RFC 6455's token characters, which have no '/': it would refuse
  // `SPDY/3.1+…` outright, so the header is taken out of its sight and the answer added back
  const protocol = SPDY_TUNNEL_PREFIX + chosen;
  delete req.headers['sec-websocket-protocol'];
  const wss = new (wsLibrary().WebSocketServer)({ noServer: true });
  wss.on('headers', (headers: string[]) => headers.push(`Sec-WebSocket-Protocol: ${protocol}`));
  return new Promise((resolve, reject) => {
    // ws answers a malformed WebSocket request itself and never calls back: the socket closes
    socket.once('close', () => reject(new SpdyUpgradeError(400, 'unable to upgrade: invalid WebSocket request')));
    wss.handleUpgrade(req, socket, head, ws => resolve(acceptTunnelledPortForward(ws, { ...opts, protocol })));
  });
}

/** the WebSocket's binary messages as one byte stream both ways */
export function webSocketBytes(ws: WebSocket): Duplex {
  const bytes = wsLibrary().createWebSocketStream(ws);
  // a peer that goes away mid-stream ends the session, it is not an error of the stream's user
  bytes.on('error', () => bytes.destroy());
  return bytes;
}
