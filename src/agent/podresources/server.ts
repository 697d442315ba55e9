// The pod resources socket, `<root-dir>/pod-resources/agent.sock` (spec 001 §4.3): monitoring
// agents ask it which devices each container holds. Like the pod info socket it is root's only
// (0600), removed and made again at every start.

import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Server, ServerCredentials, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import type { Logger } from '../../api/log.ts';
import { loadProto } from '../devices/protos.ts';
import { podResourcesHandlers, type PodResourcesSource } from './service.ts';

export const podResourcesSocket = (rootDir: string) => join(rootDir, 'pod-resources', 'agent.sock');

/** v1.PodResourcesLister, for the server and for clients */
export const podResourcesService = () => ((loadProto('../podresources/podresources.proto').pkg.v1 as GrpcObject).PodResourcesLister as ServiceClientConstructor);

export interface PodResourcesServer { socket: string; stop(): Promise<void> }

export async function startPodResourcesServer(o: { rootDir: string; source: PodResourcesSource; log: Logger }): Promise<PodResourcesServer> {
  const socket = podResourcesSocket(o.rootDir);
  await mkdir(join(o.rootDir, 'pod-resources'), { recursive: true, mode: 0o750 });
  await rm(socket, { force: true });
  const server = new Server();
  server.addService(podResourcesService().service, podResourcesHandlers(o.source));
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? reject(err) : resolve())));
  await chmod(socket, 0o600);
  o.log.info('pod resources API serving', { socket });
  return {
    socket,
    async stop() {
      server.forceShutdown();
      await rm(socket, { force: true });
    },
  };
}
