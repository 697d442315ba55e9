// The API server with the controllers and the scheduler beside it, as `orch server` and `orch up`
// run them: clients of the API like any other, each under its own name as kubeadm sets them up.
// The controller manager is system:kube-controller-manager and runs each controller as its
// service account (--use-service-account-credentials); it signs CSRs with the cluster CA handed
// to it here (--cluster-signing-cert-file/-key-file). The scheduler is system:kube-scheduler.
// The scheduler and the taint eviction controller share one pod informer. Each
// runs while it holds its Lease (kube-controller-manager, kube-scheduler), so that an
// `orch controller-manager` or `orch scheduler` started beside it, or a second server on the same
// etcd, stands by rather than doing the same work twice.

import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../api/log.ts';
import { startServer, type RunningServer, type ServerConfig } from '../apiserver/start.ts';
import type { ClientConfig } from '../client/kubeconfig.ts';
import { createClient, type Client } from '../client/rest.ts';
import { startControllers, type ControllerSettings } from '../controllers/manager.ts';
import { podInformer } from '../controllers/pod-view.ts';
import { startScheduler } from '../controllers/scheduler/scheduler.ts';
import { serviceAccountClient } from '../controllers/service-account-clients.ts';
import { runElected, type LeaderElectionSettings } from './leader-election-flags.ts';

/**
 * the in-process components' candidate is the server's data dir on this host: restarted, even
 * after a kill -9, it takes back its own lease at once instead of waiting it out as a stranger
 */
const elected = (name: string, dataDir: string): LeaderElectionSettings => ({
  enabled: true, name, namespace: 'kube-system', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000,
  identity: `${hostname()}_orch-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`,
});

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
  // what the kubeconfigs the server wrote say, taken from it rather than parsed back from YAML
  const configOf = (c: { cert: string; key: string }): ClientConfig => ({ server: server.url, ca: Buffer.from(server.clusterCA.cert), cert: Buffer.from(c.cert), key: Buffer.from(c.key) });
  const kubeconfig = configOf(server.credentials.admin);
  const client = createClient(kubeconfig);
  const managerConfig = configOf(server.credentials.controllerManager);
  const manager = createClient(managerConfig, { userAgent: 'orch-controller-manager' });
  const schedulerConfig = configOf(server.credentials.scheduler);
  const schedulerClient = createClient(schedulerConfig, { userAgent: 'orch-scheduler' });
  // leader election on connections of their own, as kube-controller-manager's and
  // kube-scheduler's: a renewal must not wait behind the components' watches and writes
  const managerElection = createClient(managerConfig, { userAgent: 'orch-controller-manager/leader-election' });
  const schedulerElection = createClient(schedulerConfig, { userAgent: 'orch-scheduler/leader-election' });
  // without --root-ca-file, the CA that kube-root-ca.crt publishes is the kubeconfig's
  o.controllers.settings.rootCA ??= server.clusterCA.cert;
  o.controllers.settings.clusterSigning ??= server.clusterCA;
  const pods = podInformer(manager, o.log.with({ component: 'pod-informer' }));
  const clientFor = (account: string) => serviceAccountClient(manager, managerConfig, account, o.log.with({ component: 'controller-credentials' }));
  // a server that runs no controllers takes no lease: a controller manager beside it leads
  const running = o.controllers.enabled.length === 0 ? undefined : runElected(managerElection, o.log, elected('kube-controller-manager', o.server.dataDir), 'kube-controller-manager', () => startControllers({ client: manager, clientFor, log: o.log, ...o.controllers, shared: { pods } }));
  const scheduler = o.schedulerNames.length ? runElected(schedulerElection, o.log, elected('kube-scheduler', o.server.dataDir), 'default-scheduler', () => startScheduler({ client: schedulerClient, log: o.log.with({ component: 'scheduler' }), schedulerNames: o.schedulerNames, pods })) : undefined;
  return {
    server,
    client,
    async stop() {
      await Promise.all([running?.stop(), scheduler?.stop()]);
      pods.stop();
      for (const c of [client, manager, schedulerClient, managerElection, schedulerElection]) c.close();
      await server.shutdown();
    },
  };
}
