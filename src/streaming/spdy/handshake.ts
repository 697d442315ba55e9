// The HTTP/1.1 upgrade to SPDY/3.1 as the kubelet answers it (and kube-apiserver relays it):
// the client lists the stream protocols it speaks in X-Stream-Protocol-Version, the server picks
// the first of the client's it also speaks and answers 101 with Connection/Upgrade and the chosen
// version. Refusals are the kubelet's plain-text answers: 403 with the versions it accepts when
// none match, 400 when the request lacks the upgrade headers.

import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { SpdySession } from './session.ts';
import { writeHttpError } from '../http-error.ts';

export const SPDY_31 = 'SPDY/3.1';

/** the parts of a node http request the handshake reads (an IncomingMessage fits) */
export interface UpgradeRequest {
  headers: IncomingHttpHeaders;
}

/** the upgrade was refused; the HTTP answer has already been written and the socket ended */
export class SpdyUpgradeError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'SpdyUpgradeError';
    this.code = code;
  }
}

function headerList(v: string | string[] | undefined): string[] {
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all.flatMap(h => h.split(',')).map(s => s.trim()).filter(s => s !== '');
}

/** the client's first protocol the server speaks; '' when none is common */
export function negotiateProtocol(client: string[], server: readonly string[]): string {
  return client.find(p => server.includes(p)) ?? '';
}

/**
 * answers an HTTP/1.1 upgrade request (node's 'upgrade' event: request, socket, head) with 101
 * and a SPDY session as the server, or writes the refusal and throws SpdyUpgradeError
 */
export function acceptSpdyUpgrade(req: UpgradeRequest, socket: Duplex, head: Buffer, serverProtocols: readonly string[], idleTimeoutMs?: number): { session: SpdySession; protocol: string } {
  const offered = headerList(req.headers['x-stream-protocol-version']);
  const refuse = (code: number, message: string, headers: [string, string][] = []): never => {
    writeHttpError(socket, code, message, headers);
    throw new SpdyUpgradeError(code, message);
  };
  if (offered.length === 0) refuse(400, 'unable to upgrade: X-Stream-Protocol-Version is required');
  const protocol = negotiateProtocol(offered, serverProtocols);
  if (protocol === '') {
    refuse(403, `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${serverProtocols.join(' ')}]`,
      serverProtocols.map(p => ['X-Accepted-Stream-Protocol-Versions', p]));
  }
  const connection = String(req.headers.connection ?? '').toLowerCase();
  const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
  if (!connection.includes('upgrade') || !upgrade.includes(SPDY_31.toLowerCase())) {
    refuse(400, `unable to upgrade: missing upgrade headers in request: Connection=${JSON.stringify(req.headers.connection ?? '')} Upgrade=${JSON.stringify(req.headers.upgrade ?? '')}`);
  }
  socket.write([
    'HTTP/1.1 101 Switching Protocols',
    'Connection: Upgrade',
    `Upgrade: ${SPDY_31}`,
    `X-Stream-Protocol-Version: ${protocol}`,
    `Date: ${new Date().toUTCString()}`,
  ].join('\r\n') + '\r\n\r\n');
  return { session: new SpdySession(socket, { server: true, head, idleTimeoutMs }), protocol };
}
