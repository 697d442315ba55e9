// The pod info socket: `<root-dir>/pods/agent.sock`, the Pods service over gRPC. Only root may
// connect: the spec leaves authorization to the socket's file mode (0600), so the socket left
// by an earlier run is removed first and the new one is tightened before the agent serves.

import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { Logger } from '../../api/log.ts';
import type { LocalPods } from './local-pods.ts';
import { podsHandlers, podsService, type WatchLimits } from './service.ts';

export const podInfoSocket = (rootDir: string) => join(rootDir, 'pods', 'agent.sock');

export interface PodInfoServer {
  socket: string;
  stop(): Promise<void>;
}

export async function startPodInfoServer(o: { rootDir: string; view: LocalPods; log: Logger; limits?: WatchLimits }): Promise<PodInfoServer> {
  if (process.platform !== 'linux') throw new Error('the pod info API is offered on Linux only');
  const socket = podInfoSocket(o.rootDir);
  await mkdir(join(o.rootDir, 'pods'), { recursive: true, mode: 0o750 });
  await rm(socket, { force: true });
  const server = new Server();
  server.addService(podsService, podsHandlers(o.view, o.limits));
  // connecting needs write permission on the socket, which the usual umask (022) already denies
  // others; the mode then takes the group's away too, before anyone is told of the socket
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? reject(err) : resolve())));
  await chmod(socket, 0o600);
  o.log.info('pod info API serving', { socket });
  return {
    socket,
    async stop() {
      o.view.stop();
      // watch streams never end by themselves: they are cancelled
      server.forceShutdown();
      await rm(socket, { force: true });
    },
  };
}
