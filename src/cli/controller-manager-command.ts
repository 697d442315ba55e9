// `orch controller-manager`: the control loops as a separate process, against any API server.

import { featureGatesFlag, readFeatureGates } from './feature-gates-flag.ts';
import { apiServerFeatureGates } from '../api/feature-gates.ts';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { startControllers } from '../controllers/manager.ts';
import { serviceAccountClient } from '../controllers/service-account-clients.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { signalled, type Command } from './command.ts';
import { controllerFlags, controllerOptions } from './controller-flags.ts';
import { leaderElectionFlags, leaderElectionOptions, runElected } from './leader-election-flags.ts';

export const controllerManagerCommand: Command = {
  name: 'controller-manager',
  summary: 'Run the control loops (workloads, garbage collection, endpoints, namespaces, nodes, volumes, autoscaling, …) against an API server.',
  usage: 'orch controller-manager --kubeconfig FILE [--controllers LIST]',
  flags: {
    kubeconfig: kubeconfigFlag,
    ...controllerFlags,
    'use-service-account-credentials': { type: 'boolean', default: false, description: 'run each controller as its own service account in kube-system (a token from the TokenRequest API), bound by its system:controller:<name> role' },
    ...leaderElectionFlags('kube-controller-manager'),
    'feature-gates': featureGatesFlag,
    ...loggingFlags,
  },
  async run(values) {
    const client = await apiClient(values);
    const log = loggerFromFlags(values);
    log.info('feature gates', readFeatureGates(values['feature-gates'], apiServerFeatureGates).effective());
    const controllers = controllerOptions(values);
    const kubeconfig = await loadKubeconfig(String(values.kubeconfig));
    controllers.settings.rootCA ??= kubeconfig.ca?.toString('utf8');
    const clientFor = values['use-service-account-credentials'] ? (account: string) => serviceAccountClient(client, kubeconfig, account, log.with({ component: 'controller-credentials' })) : undefined;
    const election = await apiClient(values, 'orch-controller-manager/leader-election');
    const running = runElected(election, log, leaderElectionOptions(values), 'kube-controller-manager', () => startControllers({ client, clientFor, log, ...controllers }));
    process.stdout.write(`orch controller-manager running: ${controllers.enabled.join(', ')}\n`);
    await signalled();
    await running.stop();
    client.close();
    election.close();
    return 0;
  },
};
