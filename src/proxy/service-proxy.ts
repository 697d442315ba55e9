// The service proxy as a component, the same in `orch proxy` and in `orch up`: the loop of
// proxier.ts over nft when the node has real packets to steer, or computing its tables only
// (the simulated runtime, --dry-run), where they are still there to read.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { findNft } from '../netfilter/nft.ts';
import { enableBridgeNetfilter, enableRouteLocalnet, nftPacketFilter } from './nft-filter.ts';
import { startProxier, type Proxier, type SyncReport } from './proxier.ts';

export interface ServiceProxyOptions {
  client: Client;
  nodeName: string;
  clusterCIDRs: string[];
  /** compute the tables, write nothing */
  dryRun: boolean;
  table?: string;
  minSyncIntervalMs?: number;
  localhostNodePorts?: boolean;
  /** see ProxierOptions.loadBalancerIP */
  loadBalancerIP?: string;
  log: Logger;
  onSync?: (s: SyncReport) => void;
}

/** the proxy, started; refuses to start for real without the nft tool */
export async function startServiceProxy(o: ServiceProxyOptions): Promise<Proxier> {
  let filter;
  if (!o.dryRun) {
    const nft = findNft();
    if (!nft) throw new Error('the nft tool is not installed (apt-get install nftables); the service proxy needs it');
    filter = nftPacketFilter(nft);
    if (o.localhostNodePorts ?? true) await enableRouteLocalnet();
    if (!(await enableBridgeNetfilter())) o.log.warn('br_netfilter is not loaded (modprobe br_netfilter): pods reaching a Service backed by a pod on the same bridge may get no answer');
  }
  return startProxier({
    client: o.client, nodeName: o.nodeName, clusterCIDRs: o.clusterCIDRs, table: o.table, filter,
    minSyncIntervalMs: o.minSyncIntervalMs, localhostNodePorts: o.localhostNodePorts, loadBalancerIP: o.loadBalancerIP, log: o.log, onSync: o.onSync,
  });
}
