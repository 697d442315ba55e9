// `orch scheduler`: the scheduler as a separate process, against any API server.

import { featureGatesFlag, readFeatureGates } from './feature-gates-flag.ts';
import { apiServerFeatureGates } from '../api/feature-gates.ts';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { startScheduler } from '../controllers/scheduler/scheduler.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { signalled, type Command } from './command.ts';
import { leaderElectionFlags, leaderElectionOptions, runElected } from './leader-election-flags.ts';

export const schedulerCommand: Command = {
  name: 'scheduler',
  summary: 'Assign pending pods to nodes (filters, scoring, binding) against an API server.',
  usage: 'orch scheduler --kubeconfig FILE [--scheduler-name NAMES]',
  flags: {
    kubeconfig: kubeconfigFlag,
    'scheduler-name': { type: 'string', default: 'default-scheduler', description: 'spec.schedulerName values served, comma-separated' },
    ...leaderElectionFlags('kube-scheduler'),
    'feature-gates': featureGatesFlag,
    ...loggingFlags,
  },
  async run(values) {
    const client = await apiClient(values, 'orch-scheduler');
    const log = loggerFromFlags(values);
    log.info('feature gates', readFeatureGates(values['feature-gates'], apiServerFeatureGates).effective());
    const names = String(values['scheduler-name']).split(',').map(x => x.trim()).filter(Boolean);
    const election = await apiClient(values, 'orch-scheduler/leader-election');
    const scheduler = runElected(election, log, leaderElectionOptions(values), 'default-scheduler', () => startScheduler({ client, log, schedulerNames: names }));
    process.stdout.write(`orch scheduler running: ${names.join(', ')}\n`);
    await signalled();
    await scheduler.stop();
    client.close();
    election.close();
    return 0;
  },
};
