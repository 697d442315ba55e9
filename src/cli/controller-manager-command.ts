// `orch controller-manager`: the control loops as a separate process, against any API server.

import { createLogger, levelFromVerbosity } from '../api/log.ts';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createClient } from '../client/rest.ts';
import { startControllers } from '../controllers/manager.ts';
import type { Command } from './command.ts';
import { controllerFlags, controllerOptions } from './controller-flags.ts';

export const controllerManagerCommand: Command = {
  name: 'controller-manager',
  summary: 'Run the control loops (namespace lifecycle, node lifecycle, taint eviction) against an API server.',
  usage: 'orch controller-manager --kubeconfig FILE [--controllers LIST]',
  flags: {
    kubeconfig: { type: 'string', default: '', description: 'kubeconfig with the API server address and credentials (required)' },
    ...controllerFlags,
    v: { type: 'string', default: '0', description: 'log verbosity: 0 warnings and errors, 1 info, 4 debug' },
  },
  async run(values) {
    if (!values.kubeconfig) {
      process.stderr.write('Error: --kubeconfig is required\n');
      return 2;
    }
    const log = createLogger(levelFromVerbosity(Number(values.v ?? 0)));
    const controllers = controllerOptions(values);
    const client = createClient(await loadKubeconfig(String(values.kubeconfig)));
    const running = startControllers({ client, log, ...controllers });
    process.stdout.write(`orch controller-manager running: ${controllers.enabled.join(', ')}\n`);
    await new Promise<void>(done => {
      const stop = () => { running.stop(); client.close(); done(); };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    return 0;
  },
};
