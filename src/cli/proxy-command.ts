// `orch proxy`: the service proxy as a process of its own beside a node agent (kube-proxy's
// place), programming this host's nftables from the Services and EndpointSlices of any API server.

import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { parseDuration } from '../api/duration.ts';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { defaultTable } from '../proxy/rules.ts';
import { renderRuleset } from '../proxy/ruleset.ts';
import { startServiceProxy, type ProxyMode } from '../proxy/service-proxy.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { flag, signalled, UsageError, type Command } from './command.ts';

const cidr = /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/;

export const proxyCommand: Command = {
  name: 'proxy',
  summary: 'Route Service traffic on this node (ClusterIP, NodePort, externalIPs) to endpoints with nftables, as kube-proxy does.',
  usage: 'orch proxy --kubeconfig FILE [--hostname-override NAME] [--cluster-cidr CIDRS] [--dry-run]',
  flags: {
    kubeconfig: kubeconfigFlag,
    'hostname-override': { type: 'string', default: '', description: 'this node\'s name, for Local traffic policies (default: the hostname)' },
    'cluster-cidr': { type: 'string', default: '10.42.0.0/16', description: 'the pod network, comma-separated; traffic from outside it to a ClusterIP is masqueraded' },
    'min-sync-period': { type: 'string', default: '1s', description: 'the least time between two writes of the rules' },
    'proxy-mode': { type: 'string', default: '', description: 'nftables or iptables (default: nftables, iptables where nft is missing)' },
    'nft-table': { type: 'string', default: defaultTable, description: 'the nftables table the rules live in (ip and ip6 families)' },
    'load-balancer-ip': { type: 'string', default: '', description: 'an address of this host given to LoadBalancer Services as their ingress (default: none, status.loadBalancer left empty; the Services are reached on their node ports)' },
    'dry-run': { type: 'boolean', default: false, description: 'compute the rules and print each new table instead of writing it' },
    ...loggingFlags,
  },
  async run(values) {
    const cidrs = String(values['cluster-cidr']).split(',').map(s => s.trim()).filter(Boolean);
    for (const c of cidrs) if (!cidr.test(c)) throw new UsageError(`invalid --cluster-cidr ${JSON.stringify(c)}`);
    const minSync = flag(() => parseDuration(String(values['min-sync-period'])));
    const table = String(values['nft-table']);
    if (!/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(table)) throw new UsageError(`invalid --nft-table ${JSON.stringify(table)}`);
    const mode = String(values['proxy-mode'] ?? '');
    if (mode && mode !== 'nftables' && mode !== 'iptables') throw new UsageError(`invalid --proxy-mode ${JSON.stringify(mode)}: nftables or iptables`);
    const lbIP = String(values['load-balancer-ip'] ?? '');
    if (lbIP && !isIP(lbIP)) throw new UsageError(`invalid --load-balancer-ip ${JSON.stringify(lbIP)}`);
    const client = await apiClient(values, 'orch-proxy');
    const log = loggerFromFlags(values);
    const nodeName = String(values['hostname-override'] || hostname()).toLowerCase();
    const dryRun = values['dry-run'] === true;
    let proxy;
    try {
      proxy = await startServiceProxy({
        client, nodeName, clusterCIDRs: cidrs, dryRun, mode: (mode || undefined) as ProxyMode | undefined, table, minSyncIntervalMs: minSync, loadBalancerIP: lbIP || undefined, log,
        onSync: dryRun ? s => { for (const r of Object.values(s.rulesets)) process.stdout.write(renderRuleset(r!)); } : undefined,
      });
    } catch (err) {
      client.close();
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`orch proxy running on node ${nodeName}${dryRun ? ' (dry run: rules printed, not written)' : ''}\n`);
    await signalled();
    await proxy.stop(true);
    client.close();
    return 0;
  },
};
