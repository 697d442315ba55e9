// The pod resources socket, `<root-dir>/pod-resources/agent.sock` (spec 001 §4.3): monitoring
// agents ask it which devices each container holds. Like the pod info socket it is root's only
// (0600), removed and made again at every start.

import { join } from 'node:path';
import type { GrpcObject, ServiceClientConstructor } from '@grpc/grpc-js';
import type { Logger } from '../../api/log.ts';
import { loadProto } from '../devices/protos.ts';
import { serveLocalGrpc, type LocalGrpcServer } from '../local-grpc.ts';
import { podResourcesHandlers, type PodResourcesSource } from './service.ts';

export const podResourcesSocket = (rootDir: string) => join(rootDir, 'pod-resources', 'agent.sock');

/** v1.PodResourcesLister, for the server and for clients */
export const podResourcesService = () => ((loadProto('../podresources/podresources.proto').pkg.v1 as GrpcObject).PodResourcesLister as ServiceClientConstructor);

export async function startPodResourcesServer(o: { rootDir: string; source: PodResourcesSource; log: Logger }): Promise<LocalGrpcServer> {
  const served = await serveLocalGrpc(podResourcesSocket(o.rootDir), server => server.addService(podResourcesService().service, podResourcesHandlers(o.source)), 0o600);
  o.log.info('pod resources API serving', { socket: served.socket });
  return served;
}
