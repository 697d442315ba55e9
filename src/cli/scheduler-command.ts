// `orch scheduler`: the scheduler as a separate process, against any API server.

import { createLogger, levelFromVerbosity } from '../api/log.ts';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createClient } from '../client/rest.ts';
import { startScheduler } from '../controllers/scheduler/scheduler.ts';
import type { Command } from './command.ts';

export const schedulerCommand: Command = {
  name: 'scheduler',
  summary: 'Assign pending pods to nodes (filters, scoring, binding) against an API server.',
  usage: 'orch scheduler --kubeconfig FILE [--scheduler-name NAMES]',
  flags: {
    kubeconfig: { type: 'string', default: '', description: 'kubeconfig with the API server address and credentials (required)' },
    'scheduler-name': { type: 'string', default: 'default-scheduler', description: 'spec.schedulerName values served, comma-separated' },
    v: { type: 'string', default: '0', description: 'log verbosity: 0 warnings and errors, 1 info, 4 debug' },
  },
  async run(values) {
    if (!values.kubeconfig) {
      process.stderr.write('Error: --kubeconfig is required\n');
      return 2;
    }
    const log = createLogger(levelFromVerbosity(Number(values.v ?? 0)));
    const client = createClient(await loadKubeconfig(String(values.kubeconfig)), { userAgent: 'orch-scheduler' });
    const names = String(values['scheduler-name']).split(',').map(x => x.trim()).filter(Boolean);
    const scheduler = startScheduler({ client, log, schedulerNames: names });
    process.stdout.write(`orch scheduler running: ${names.join(', ')}\n`);
    await new Promise<void>(done => {
      const stop = () => { scheduler.stop(); client.close(); done(); };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    return 0;
  },
};
