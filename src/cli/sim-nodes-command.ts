// `orch sim-nodes`: many simulated nodes in one process against any API server (orch's or
// Kubernetes'), as KWOK provides them; `orch up --sim-nodes N` starts the same pool itself.

import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { flag, signalled, type Command, type Flag } from './command.ts';
import { maxSimNodes } from '../sim-nodes/node-addresses.ts';

export const simNodeFlags: Record<string, Flag> = {
  'sim-node-prefix': { type: 'string', default: 'sim-node', description: 'simulated nodes are named PREFIX-0, PREFIX-1, …' },
};

export function simNodeCount(value: unknown, name: string): number {
  return flag(() => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > maxSimNodes) throw new Error(`invalid ${name} ${JSON.stringify(value)}: 0 to ${maxSimNodes} nodes`);
    return n;
  });
}

export const simNodesCommand: Command = {
  name: 'sim-nodes',
  summary: 'Run simulated nodes (registration, lease heartbeats, pods on the simulated runtime\'s model) against an API server.',
  usage: 'orch sim-nodes --kubeconfig FILE --count N [--sim-node-prefix sim-node]',
  flags: {
    kubeconfig: kubeconfigFlag,
    count: { type: 'string', default: '1', description: 'how many nodes to run' },
    ...simNodeFlags,
    ...loggingFlags,
  },
  async run(values) {
    const count = simNodeCount(values.count, '--count');
    const client = await apiClient(values, 'orch-sim-nodes');
    const log = loggerFromFlags(values);
    const started = performance.now();
    const { startSimNodePool } = await import('../sim-nodes/sim-node-pool.ts');
    const pool = await startSimNodePool({ client, count, prefix: String(values['sim-node-prefix']), log });
    process.stdout.write(`orch sim-nodes: ${count} nodes registered in ${Math.round(performance.now() - started)} ms (${pool.names[0] ?? '-'} … ${pool.names.at(-1) ?? '-'})\n`);
    await signalled();
    pool.stop();
    client.close();
    return 0;
  },
};
