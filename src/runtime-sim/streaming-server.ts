// The simulated runtime's streaming server, as containerd runs one for its CRI: plain HTTP on
// loopback, /exec/{token}, /attach/{token} and /portforward/{token}, speaking whichever protocol
// the shared table in streaming/ takes (the agent and kubelet-style clients use the WebSocket
// channel protocols). Exec runs the command in the sim's shell with its streams attached;
// attach follows PID 1's output; port forwarding connects to the pod's listeners (network.ts).

import type { IncomingMessage } from 'node:http';
import { http } from '../streaming/node-http.ts';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { commandModuleFor, portForwardModuleFor } from '../streaming/protocols.ts';
import { exitStatus, failureStatus } from '../streaming/exit-status.ts';
import { relayBytes } from '../streaming/relay.ts';
import type { CommandStreams } from '../streaming/streams.ts';
import type { Output, OutputStream } from './shell/host.ts';
import type { SimRuntime } from './runtime-state.ts';
import { StreamingRequests, type StreamingRequest } from './streaming-requests.ts';
import { writeHttpError } from '../streaming/http-error.ts';

/** output written as the client can take it: a slow reader slows the command down */
function writer(streams: CommandStreams) {
  return async (stream: OutputStream, data: Output) => {
    const w = stream === 'stderr' && streams.stderr ? streams.stderr : streams.stdout;
    if (!w || w.writableEnded || w.destroyed) return;
    if (!w.write(typeof data === 'string' ? Buffer.from(data) : data)) await new Promise<void>(resolve => { w.once('drain', resolve); w.once('close', resolve); });
  };
}

async function serveCommand(rt: SimRuntime, r: Extract<StreamingRequest, { kind: 'exec' | 'attach' }>, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const module = commandModuleFor(req);
  if (!module) return writeHttpError(socket, 400, 'unable to upgrade: unsupported protocol');
  const c = rt.containers.find(r.containerId);
  if (!c || c.state !== 'CONTAINER_RUNNING') return writeHttpError(socket, 500, `container ${r.containerId} is not running`);
  const streams = await module.command(req, socket, head, r);
  const write = writer(streams);
  if (r.kind === 'exec') {
    let run;
    let size: { width: number; height: number } | undefined;
    if (streams.resize) void (async () => { for await (const s of streams.resize!) size = s; })();
    try {
      run = c.execStream(r.cmd, { stdin: streams.stdin, tty: r.tty, write, terminalSize: () => size });
    } catch (err) {
      return streams.finish(failureStatus(`failed to exec in container: ${(err as Error).message}`));
    }
    void streams.closed.then(() => run.kill());
    streams.finish(exitStatus(await run.done, r.cmd));
    return;
  }
  const detach = c.attach((stream, text) => void write(stream, text), { stdin: streams.stdin, resize: streams.resize });
  void streams.closed.then(detach);
  await Promise.race([c.exited(), streams.closed]);
  detach();
  streams.finish(undefined);
}

async function servePortForward(rt: SimRuntime, sandboxId: string, req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
  const module = portForwardModuleFor(req);
  if (!module) return writeHttpError(socket, 400, 'unable to upgrade: unsupported protocol');
  const ports = url.searchParams.getAll('port').flatMap(p => p.split(',')).map(Number);
  if (module.name === 'websocket' && (ports.length === 0 || ports.some(p => !Number.isInteger(p) || p < 1 || p > 65535))) {
    return writeHttpError(socket, 400, 'query parameter "port" is required');
  }
  const session = await module.portForward(req, socket, head, ports);
  for await (const conn of session.connections) {
    void rt.network.connect(sandboxId, conn.port).then(
      tcp => relayBytes(conn.data, tcp),
      err => conn.fail(`failed to execute portforward in network namespace "${sandboxId}": ${(err as Error).message}`),
    );
  }
}

export async function startStreamingServer(rt: SimRuntime): Promise<{ requests: StreamingRequests; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(400, { 'content-type': 'text/plain' }).end('the streaming server takes upgrades only\n'));
  const sockets = new Set<Duplex>();
  let requests: StreamingRequests | undefined;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://sim');
    const [, kind, token = ''] = url.pathname.split('/');
    const r = requests?.take(token);
    if (!r || r.kind !== kind) return writeHttpError(socket, 404, 'invalid token');
    const served = r.kind === 'portforward' ? servePortForward(rt, r.podSandboxId, req, socket, head, url) : serveCommand(rt, r, req, socket, head);
    served.catch(err => { rt.settings.log.warn('streaming failed', { err: String(err) }); socket.destroy(); });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  requests = new StreamingRequests(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    requests,
    close: () => new Promise(resolve => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}
