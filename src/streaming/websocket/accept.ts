// Accepting a WebSocket upgrade with `ws` (noServer mode): the subprotocol picked from the
// client's offer as kube-apiserver's handshake picks it, no compression (the kubelet offers
// none, and the bytes are often compressed already), and messages as large as a container
// writes at once.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { wsLibrary } from './ws-library.ts';
import { chooseProtocol, offeredProtocols } from './channels.ts';

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** the protocol this request would get from `supported`, or undefined when none fits */
export function negotiated(req: IncomingMessage, supported: readonly string[]): string | undefined {
  return chooseProtocol(offeredProtocols(req.headers['sec-websocket-protocol']), supported);
}

export function unsupportedProtocolMessage(req: IncomingMessage, supported: readonly string[]): string {
  return `requested protocol(s) are not supported: [${offeredProtocols(req.headers['sec-websocket-protocol']).join(' ')}]; supports [${supported.join(' ')}]`;
}

/** completes the handshake; resolves with the socket and the protocol agreed ('' for none) */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, head: Buffer, supported: readonly string[]): Promise<{ ws: WebSocket; protocol: string }> {
  const protocol = negotiated(req, supported);
  if (protocol === undefined) return Promise.reject(new Error(unsupportedProtocolMessage(req, supported)));
  const server = new (wsLibrary().WebSocketServer)({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 * 1024, clientTracking: false, handleProtocols: () => protocol || false });
  return new Promise(resolve => server.handleUpgrade(req, socket, head, ws => resolve({ ws, protocol })));
}
