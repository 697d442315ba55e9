// `orch network-policy`: the NetworkPolicy enforcer of one node as a process of its own, against
// any API server (orch up runs the same component beside its node agent).

import { hostname } from 'node:os';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { findNft } from '../netfilter/nft.ts';
import { startEnforcer, tableName } from '../network-policy/enforcer.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { signalled, type Command } from './command.ts';

export const networkPolicyCommand: Command = {
  name: 'network-policy',
  summary: 'Enforce NetworkPolicies on this node\'s pods through an nftables table of its own.',
  usage: 'orch network-policy --kubeconfig FILE [--hostname-override NAME] [--nft-table NAME] [--compute-only]',
  flags: {
    kubeconfig: kubeconfigFlag,
    'hostname-override': { type: 'string', default: '', description: 'the node whose pods are filtered (default: this machine\'s hostname, as the node agent names its node)' },
    'nft-table': { type: 'string', default: '', description: 'the inet table this enforcer owns (default orch-netpol-<node>); made on start, removed on stop' },
    'compute-only': { type: 'boolean', default: false, description: 'compute the rules without programming the packet filter (as on the simulated runtime)' },
    ...loggingFlags,
  },
  async run(values) {
    const client = await apiClient(values, 'orch-network-policy');
    const log = loggerFromFlags(values);
    const node = (String(values['hostname-override'] ?? '') || hostname()).trim().toLowerCase();
    const apply = !values['compute-only'];
    if (apply && !findNft()) {
      process.stderr.write('Error: nft is not installed (apt-get install nftables), or use --compute-only\n');
      return 1;
    }
    const enforcer = await startEnforcer({ client, node, log, apply, table: String(values['nft-table'] ?? '') || tableName(node) });
    await enforcer.synced();
    process.stdout.write(`orch network-policy running for node ${node}: ${apply ? `table inet ${enforcer.table.name}` : 'computing only'}\n`);
    await signalled();
    await enforcer.stop();
    client.close();
    return 0;
  },
};
