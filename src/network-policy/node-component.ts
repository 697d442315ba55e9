// The enforcer as a component of a node started by `orch up`: it programs the packet filter
// where there are packets and nft to program (real runtimes), and computes only on the simulated
// runtime or where nft is missing, saying so.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { findNft } from '../netfilter/nft.ts';
import { startEnforcer, type Enforcer } from './enforcer.ts';

export async function startNodeNetworkPolicy(o: { client: Client; node: string; simulated: boolean; log: Logger }): Promise<Enforcer> {
  const apply = !o.simulated && !!findNft();
  if (!o.simulated && !apply) o.log.warn('NetworkPolicies are not enforced on this node: nft is not installed (apt-get install nftables)');
  return startEnforcer({ client: o.client, node: o.node, log: o.log, apply });
}
