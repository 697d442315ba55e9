// The packet filter of a real node: scripts through `nft -f` (one transaction each), the table
// read back as JSON to reconcile after a restart. Node ports on 127.0.0.1 need the kernel to
// route loopback-sourced packets out of other interfaces (route_localnet), as kube-proxy sets it.

import { readFile, writeFile } from 'node:fs/promises';
import { applyNft, deleteNftTable, listNftTable } from '../netfilter/nft.ts';
import type { PacketFilter } from './proxier.ts';
import { existingTable } from './ruleset.ts';

const routeLocalnet = '/proc/sys/net/ipv4/conf/all/route_localnet';

/** turns route_localnet on (kube-proxy leaves it on too: other components may rely on it by then) */
export async function enableRouteLocalnet(): Promise<void> {
  const now = (await readFile(routeLocalnet, 'utf8').catch(() => '')).trim();
  if (now !== '1') await writeFile(routeLocalnet, '1\n');
}

const bridgeNfCall = '/proc/sys/net/bridge/bridge-nf-call-iptables';

/**
 * bridged packets through the ip hooks (br_netfilter loaded): without it the reply of a pod to
 * another pod on the same bridge skips conntrack and so the un-DNAT of a Service's address
 */
export async function enableBridgeNetfilter(): Promise<boolean> {
  const now = (await readFile(bridgeNfCall, 'utf8').catch(() => undefined))?.trim();
  if (now === undefined) return false;
  if (now !== '1') await writeFile(bridgeNfCall, '1\n');
  return true;
}

export function nftPacketFilter(nft?: string): PacketFilter {
  return {
    apply: script => applyNft(script, nft),
    async existing(family, table) {
      const json = await listNftTable(family, table, nft);
      return json === undefined ? undefined : existingTable(json);
    },
    deleteTable: (family, table) => deleteNftTable(family, table, nft),
  };
}
