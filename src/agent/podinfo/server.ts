// The pod info socket: `<root-dir>/pods/agent.sock`, the Pods service over gRPC. Only root may
// connect: the spec leaves authorization to the socket's file mode (0600), so the socket left
// by an earlier run is removed first and the new one is tightened before the agent serves.

import { join } from 'node:path';
import type { Logger } from '../../api/log.ts';
import { serveLocalGrpc } from '../local-grpc.ts';
import type { LocalPods } from './local-pods.ts';
import { podsHandlers, podsService, type WatchLimits } from './service.ts';

export const podInfoSocket = (rootDir: string) => join(rootDir, 'pods', 'agent.sock');

export interface PodInfoServer {
  socket: string;
  stop(): Promise<void>;
}

export async function startPodInfoServer(o: { rootDir: string; view: LocalPods; log: Logger; limits?: WatchLimits }): Promise<PodInfoServer> {
  if (process.platform !== 'linux') throw new Error('the pod info API is offered on Linux only');
  // connecting needs write permission on the socket, which the usual umask (022) already denies
  // others; the mode then takes the group's away too, before anyone is told of the socket
  const served = await serveLocalGrpc(podInfoSocket(o.rootDir), server => server.addService(podsService, podsHandlers(o.view, o.limits)), 0o600);
  o.log.info('pod info API serving', { socket: served.socket });
  return {
    socket: served.socket,
    async stop() {
      o.view.stop();
      await served.stop();
    },
  };
}
