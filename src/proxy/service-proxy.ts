// The service proxy as a component, the same in `orch proxy` and in `orch up`: the loop of
// proxier.ts over nft when the node has real packets to steer (iptables-restore where nft is
// missing, or when asked), or computing its tables only (the simulated runtime, --dry-run),
// where they are still there to read.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { findNft } from '../netfilter/nft.ts';
import { findIptables, iptablesWriter } from './iptables-writer.ts';
import { enableBridgeNetfilter, enableRouteLocalnet, nftPacketFilter } from './nft-filter.ts';
import { startProxier, type Proxier, type SyncReport } from './proxier.ts';

export type ProxyMode = 'nftables' | 'iptables';

export interface ServiceProxyOptions {
  client: Client;
  nodeName: string;
  clusterCIDRs: string[];
  /** compute the tables, write nothing */
  dryRun: boolean;
  /** kube-proxy's --proxy-mode; default nftables, or iptables where nft is missing */
  mode?: ProxyMode;
  table?: string;
  minSyncIntervalMs?: number;
  localhostNodePorts?: boolean;
  /** see ProxierOptions.loadBalancerIP */
  loadBalancerIP?: string;
  log: Logger;
  onSync?: (s: SyncReport) => void;
}

/** the mode this host can run: the one asked for, else nftables, else iptables; undefined: neither tool */
export function availableMode(asked?: ProxyMode): ProxyMode | undefined {
  if (asked === 'nftables') return findNft() ? 'nftables' : undefined;
  if (asked === 'iptables') return findIptables() ? 'iptables' : undefined;
  return findNft() ? 'nftables' : findIptables() ? 'iptables' : undefined;
}

/** the proxy, started; refuses to start for real without the tool of its mode */
export async function startServiceProxy(o: ServiceProxyOptions): Promise<Proxier> {
  let filter, iptables;
  if (!o.dryRun) {
    const mode = availableMode(o.mode);
    if (!mode) throw new Error(o.mode === 'iptables' ? 'iptables-restore is not installed; the iptables mode needs it' : 'neither nft nor iptables-restore is installed (apt-get install nftables); the service proxy needs one');
    if (mode === 'nftables') filter = nftPacketFilter(findNft());
    else iptables = iptablesWriter(findIptables());
    if (o.localhostNodePorts ?? true) await enableRouteLocalnet();
    if (!(await enableBridgeNetfilter())) o.log.warn('br_netfilter is not loaded (modprobe br_netfilter): pods reaching a Service backed by a pod on the same bridge may get no answer');
  }
  return startProxier({
    client: o.client, nodeName: o.nodeName, clusterCIDRs: o.clusterCIDRs, table: o.table, filter, iptables,
    minSyncIntervalMs: o.minSyncIntervalMs, localhostNodePorts: o.localhostNodePorts, loadBalancerIP: o.loadBalancerIP, log: o.log, onSync: o.onSync,
  });
}
