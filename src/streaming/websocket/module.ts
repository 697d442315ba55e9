// The WebSocket channel protocols as one entry of the server-side protocol table
// (../protocols.ts): it takes an upgrade to `websocket` whose offered subprotocols include one of
// Kubernetes' channel protocols, or none at all (the binary framing, as the kubelet allows).

import type { IncomingMessage } from 'node:http';
import { commandProtocolNames, offeredProtocols, portForwardProtocolNames } from './channels.ts';
import { acceptWebSocket, isWebSocketUpgrade } from './accept.ts';
import { commandStreamsOverWebSocket } from './command-server.ts';
import { portForwardOverWebSocket } from './portforward-server.ts';
import type { StreamProtocolModule } from '../protocol-module.ts';

function offersAny(req: IncomingMessage, names: readonly string[]): boolean {
  const offered = offeredProtocols(req.headers['sec-websocket-protocol']);
  return offered.length === 0 || offered.some(p => names.includes(p));
}

export const webSocketChannels: StreamProtocolModule = {
  name: 'websocket',
  acceptsCommand: req => isWebSocketUpgrade(req) && offersAny(req, commandProtocolNames),
  acceptsPortForward: req => isWebSocketUpgrade(req) && offersAny(req, portForwardProtocolNames),
  async command(req, socket, head, opts) {
    const { ws, protocol } = await acceptWebSocket(req, socket, head, commandProtocolNames);
    return commandStreamsOverWebSocket(ws, protocol, opts);
  },
  async portForward(req, socket, head, ports) {
    const { ws, protocol } = await acceptWebSocket(req, socket, head, portForwardProtocolNames);
    return portForwardOverWebSocket(ws, protocol, ports);
  },
};
