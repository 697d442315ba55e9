// A gRPC server on a local UNIX socket, as the agent's node-local APIs are served (pod info, pod
// resources, device plugin registration): whatever an earlier run left at the path is removed
// first, and with a mode the socket is tightened before its path is announced to anyone.

import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';

export interface LocalGrpcServer { socket: string; stop(): Promise<void> }

export async function serveLocalGrpc(socket: string, addServices: (server: Server) => void, mode?: number): Promise<LocalGrpcServer> {
  await mkdir(dirname(socket), { recursive: true, mode: 0o750 });
  await rm(socket, { force: true });
  const server = new Server();
  addServices(server);
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? reject(err) : resolve())));
  if (mode !== undefined) await chmod(socket, mode);
  return {
    socket,
    async stop() {
      // streams never end by themselves: they are cancelled
      server.forceShutdown();
      await rm(socket, { force: true });
    },
  };
}
