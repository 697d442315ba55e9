// How the agent opens its session at the runtime's streaming URL. containerd (1.6 and on) and
// `orch runtime-sim` both serve SPDY/3.1 and Kubernetes' WebSocket channel protocols there.
// Commands go over SPDY, as the kubelet's own clients reach containerd: it alone can end stdin
// without ending the session on containerd 1.6, whose WebSocket stops at v4 (`kubectl cp` into
// a pod and `exec -i` of a command reading to the end of its input depend on that). Port
// forwarding opens one SPDY session per forwarded connection, for the same reason: a client's
// half-close (its FIN) reaches the pod's socket as with kubectl straight at containerd, where the
// WebSocket protocol cannot say it and containerd then holds each connection a second after the
// pod's side has closed. A CRI URL is good for one connection, so there is no falling back on the
// same URL.

import { PassThrough, type Duplex, type Readable } from 'node:stream';
import type { Status } from '../../api/status.ts';
import { dialSpdy, openCommandStreams, openForwardedConnection } from '../../streaming/spdy/client.ts';
import { channelStatus, failureStatus } from '../../streaming/exit-status.ts';
import type { CommandSession } from '../../streaming/relay.ts';
import type { CommandStreamOptions } from '../../streaming/streams.ts';

const commandProtocols = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];

function ended(): Readable {
  const r = new PassThrough();
  r.end();
  return r;
}

export async function dialRuntimeCommand(url: string, want: CommandStreamOptions): Promise<CommandSession> {
  const { session, protocol } = await dialSpdy(url, { protocols: commandProtocols });
  const c = await openCommandStreams(session, protocol, want);
  const status = c.outcome.then((o): Status | undefined => {
    if (o === undefined) return undefined;
    if (typeof o === 'string') return failureStatus(o);
    return channelStatus(o);
  });
  // the session ends once the outcome is in and every output stream has been read to its end
  void status.finally(() => setTimeout(() => void session.close(), 0));
  let stdin = c.stdin;
  if (!stdin) { const sink = new PassThrough(); sink.resume(); stdin = sink; }
  return {
    stdin,
    stdout: c.stdout ?? ended(),
    stderr: c.stderr ?? ended(),
    resize: size => c.resize?.(size),
    status,
    close: () => session.destroy(),
  };
}

export async function dialRuntimePort(url: string, port: number): Promise<Duplex> {
  const { session } = await dialSpdy(url, { protocols: ['portforward.k8s.io'] });
  const { data, error } = await openForwardedConnection(session, port, '0').catch(err => { session.destroy(); throw err; });
  // the runtime's words on its error stream end the connection with them
  void error.then(message => { if (message) data.destroy(new Error(message)); });
  data.once('close', () => void session.close());
  return data;
}
