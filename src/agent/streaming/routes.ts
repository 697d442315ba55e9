// The agent's streaming endpoints, as the kubelet names them: /exec/{ns}/{pod}/{container},
// /attach/{ns}/{pod}/{container}, /portForward/{ns}/{pod}. The client's protocol (whichever the
// protocol table in streaming/ takes) is terminated here; the agent asks the runtime for a
// streaming URL (CRI Exec, Attach, PortForward), opens its own session there and relays the
// streams. Refusals before the upgrade are plain text with the kubelet's status and words.

import type { Logger } from '../../api/log.ts';
import type { CriClient } from '../cri/client.ts';
import { commandModuleFor, portForwardModuleFor, streamProtocols, type StreamProtocolModule } from '../../streaming/protocols.ts';
import { relayBytes, relayCommand } from '../../streaming/relay.ts';
import type { ForwardedConnection } from '../../streaming/streams.ts';
import { commandOptions, forwardedPorts, StreamOptionsError } from './options.ts';
import type { StreamTargets } from './locate.ts';
import { dialRuntimeCommand, dialRuntimePort } from './runtime-dial.ts';

export type { UpgradeRoute } from '../server/https-server.ts';
import type { UpgradeRoute } from '../server/https-server.ts';
import { writeHttpError } from '../../streaming/http-error.ts';

export interface StreamingDeps {
  cri: CriClient;
  targets: StreamTargets;
  log: Logger;
  protocols?: StreamProtocolModule[];
}

function pathParts(url: URL, count: number): string[] | undefined {
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  return parts.length === count && parts.every(Boolean) ? parts : undefined;
}

function criMessage(err: unknown): string {
  return (err as { details?: string }).details ?? (err as Error).message ?? String(err);
}

export function commandRoute(kind: 'exec' | 'attach', deps: StreamingDeps): UpgradeRoute {
  return async (req, socket, head, url) => {
    const parts = pathParts(url, 3);
    if (!parts) return writeHttpError(socket, 400, `expected /${kind}/<namespace>/<pod>/<container>`);
    let opts;
    try { opts = commandOptions(url.searchParams); } catch (err) {
      if (err instanceof StreamOptionsError) return writeHttpError(socket, 400, err.message);
      throw err;
    }
    const [namespace, pod, container] = parts as [string, string, string];
    const where = await deps.targets.container(namespace, pod, container);
    if (!('id' in where)) return writeHttpError(socket, where.code, where.message);
    const module = commandModuleFor(req, deps.protocols ?? streamProtocols);
    if (!module) return writeHttpError(socket, 400, 'unable to upgrade: the streaming protocols offered are not supported');
    const command = url.searchParams.getAll('command');
    let runtimeUrl: string;
    try {
      runtimeUrl = kind === 'exec'
        ? (await deps.cri.exec({ containerId: where.id, cmd: command, ...opts })).url
        : (await deps.cri.attach({ containerId: where.id, ...opts })).url;
    } catch (err) {
      return writeHttpError(socket, 500, criMessage(err));
    }
    let onward;
    try { onward = await dialRuntimeCommand(runtimeUrl, opts); } catch (err) {
      return writeHttpError(socket, 500, `error dialing the runtime's streaming server: ${(err as Error).message}`);
    }
    const streams = await module.command(req, socket, head, opts).catch(err => { onward.close(); throw err; });
    await relayCommand(streams, onward);
  };
}

export function portForwardRoute(deps: StreamingDeps): UpgradeRoute {
  return async (req, socket, head, url) => {
    const parts = pathParts(url, 2);
    if (!parts) return writeHttpError(socket, 400, 'expected /portForward/<namespace>/<pod>');
    const module = portForwardModuleFor(req, deps.protocols ?? streamProtocols);
    if (!module) return writeHttpError(socket, 400, 'unable to upgrade: the streaming protocols offered are not supported');
    let ports: number[] = [];
    // WebSocket fixes the ports in the query; SPDY names one per stream
    if (module.name === 'websocket' || url.searchParams.has('port')) {
      try { ports = forwardedPorts(url.searchParams); } catch (err) {
        if (err instanceof StreamOptionsError) return writeHttpError(socket, 400, err.message);
        throw err;
      }
    }
    const [namespace, pod] = parts as [string, string];
    const where = await deps.targets.sandbox(namespace, pod);
    if (!('id' in where)) return writeHttpError(socket, where.code, where.message);
    const session = await module.portForward(req, socket, head, ports);
    for await (const conn of session.connections) void forward(deps, where.id, pod, conn);
  };
}

async function forward(deps: StreamingDeps, sandboxId: string, pod: string, conn: ForwardedConnection): Promise<void> {
  try {
    const { url } = await deps.cri.portForward({ podSandboxId: sandboxId, port: [conn.port] });
    const remote = await dialRuntimePort(url, conn.port);
    await relayBytes(conn.data, remote);
  } catch (err) {
    conn.fail(`error forwarding port ${conn.port} to pod ${pod}: ${criMessage(err)}`);
  }
}
