// How the agent opens its session at the runtime's streaming URL. containerd (1.6 and on) and
// `orch runtime-sim` both serve Kubernetes' WebSocket channel protocols there; v5 is offered
// first (the sim speaks it, so stdin can end without ending the session) and containerd picks
// v4. Port forwarding opens one socket per forwarded connection, the port in the query as the
// kubelet passes it. A SPDY client, where one exists, would be chosen here instead.

import type { Duplex } from 'node:stream';
import { dialCommand } from '../../streaming/websocket/command-client.ts';
import { dialPortForward } from '../../streaming/websocket/portforward-client.ts';
import type { CommandSession } from '../../streaming/relay.ts';

export function dialRuntimeCommand(url: string): Promise<CommandSession> {
  return dialCommand(url);
}

export function dialRuntimePort(url: string, port: number): Promise<Duplex> {
  const u = new URL(url);
  u.searchParams.append('port', String(port));
  return dialPortForward(u.toString(), { protocols: ['v4.channel.k8s.io'] });
}
