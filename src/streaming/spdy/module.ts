// SPDY's entries for the server-side protocol table (streaming/protocols.ts, where the WebSocket
// channel protocols sit): plain SPDY/3.1 upgrades for exec, attach and port-forward, and SPDY
// tunnelled in WebSocket for port-forward. The tunnel must be tried before the WebSocket channel
// protocols, as its request is a WebSocket upgrade too. (SPDY clients name each connection's port
// in its streams' headers, so portForward does not consult `ports`.)

import type { IncomingMessage } from 'node:http';
import type { StreamProtocolModule } from '../protocol-module.ts';
import { acceptSpdyCommand } from './command.ts';
import { SPDY_31 } from './handshake.ts';
import { acceptSpdyPortForward } from './portforward.ts';
import { acceptTunnelledPortForwardUpgrade, isSpdyTunnelRequest } from './tunnel.ts';

function isSpdyUpgrade(req: IncomingMessage): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase().includes(SPDY_31.toLowerCase());
}

export const spdyStreams: StreamProtocolModule = {
  name: 'spdy',
  acceptsCommand: isSpdyUpgrade,
  acceptsPortForward: isSpdyUpgrade,
  command: (req, socket, head, opts) => acceptSpdyCommand(req, socket, head, { streams: opts }),
  portForward: async (req, socket, head) => acceptSpdyPortForward(req, socket, head),
};

export const spdyTunnel: StreamProtocolModule = {
  name: 'spdy-tunnel',
  acceptsCommand: () => false,
  acceptsPortForward: isSpdyTunnelRequest,
  command: () => Promise.reject(new Error('SPDY tunnelled in WebSocket carries only port-forward')),
  portForward: (req, socket, head) => acceptTunnelledPortForwardUpgrade(req, socket, head),
};
