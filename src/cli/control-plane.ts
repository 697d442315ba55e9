// The API server with the controllers and the scheduler beside it, as `orch server` and `orch up`
// run them: the controllers are clients of the API like any other, here with the admin
// credentials, and the scheduler and the taint eviction controller share one pod informer.

import type { Logger } from '../api/log.ts';
import { startServer, type RunningServer, type ServerConfig } from '../apiserver/start.ts';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createClient, type Client } from '../client/rest.ts';
import { startControllers, type ControllerSettings } from '../controllers/manager.ts';
import { podInformer } from '../controllers/pod-view.ts';
import { startScheduler } from '../controllers/scheduler/scheduler.ts';

export interface ControlPlaneOptions {
  server: ServerConfig;
  controllers: { enabled: string[]; settings: ControllerSettings };
  /** spec.schedulerName values the scheduler serves; none: no scheduler in this process */
  schedulerNames: string[];
  log: Logger;
}

export interface ControlPlane {
  server: RunningServer;
  /** a client with the admin credentials */
  client: Client;
  stop(): Promise<void>;
}

export async function startControlPlane(o: ControlPlaneOptions): Promise<ControlPlane> {
  const server = await startServer(o.server);
  const client = createClient(await loadKubeconfig(server.kubeconfigPath));
  const pods = podInformer(client, o.log.with({ component: 'pod-informer' }));
  const running = startControllers({ client, log: o.log, ...o.controllers, shared: { pods } });
  const scheduler = o.schedulerNames.length ? startScheduler({ client, log: o.log.with({ component: 'scheduler' }), schedulerNames: o.schedulerNames, pods }) : undefined;
  return {
    server,
    client,
    async stop() {
      running.stop();
      scheduler?.stop();
      pods.stop();
      client.close();
      await server.shutdown();
    },
  };
}
