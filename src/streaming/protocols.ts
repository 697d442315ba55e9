// Which protocol module answers an upgraded exec, attach or port-forward request: the first in
// this table that accepts the request's upgrade headers (Upgrade, Sec-WebSocket-Protocol,
// X-Stream-Protocol-Version). Every server end (the node agent, the simulated runtime's
// streaming server) goes through here, so a protocol added to the table is spoken everywhere.
// Order matters: SPDY tunnelled in WebSocket (`SPDY/3.1+portforward.k8s.io`) is a WebSocket
// upgrade too, so its module must come before the channel protocols'.

import type { IncomingMessage } from 'node:http';
import type { StreamProtocolModule } from './protocol-module.ts';
import { webSocketChannels } from './websocket/module.ts';
import { spdyStreams, spdyTunnel } from './spdy/module.ts';

export type { StreamProtocolModule } from './protocol-module.ts';

/** the server-side protocols, tried in order: the tunnel before the channel protocols */
export const streamProtocols: StreamProtocolModule[] = [spdyTunnel, spdyStreams, webSocketChannels];

/** the refusal when no module takes the request, in the kubelet's words */
export class UnsupportedStreamProtocol extends Error {
  constructor(req: IncomingMessage) {
    const upgrade = req.headers.upgrade ?? '';
    const offered = req.headers['sec-websocket-protocol'] ?? req.headers['x-stream-protocol-version'] ?? '';
    super(`unable to upgrade: unsupported protocol ${JSON.stringify(String(upgrade))}${offered ? ` (${String(offered)})` : ''}`);
  }
}

export function commandModuleFor(req: IncomingMessage, modules: readonly StreamProtocolModule[] = streamProtocols): StreamProtocolModule | undefined {
  return modules.find(m => m.acceptsCommand(req));
}

export function portForwardModuleFor(req: IncomingMessage, modules: readonly StreamProtocolModule[] = streamProtocols): StreamProtocolModule | undefined {
  return modules.find(m => m.acceptsPortForward(req));
}
