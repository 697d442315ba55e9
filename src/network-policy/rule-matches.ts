// What one NetworkPolicy rule matches, as set contents: its peers per family — the addresses of
// the pods its selectors choose (a plain set, so a pod coming or going is one element added or
// deleted) and its ipBlocks less their exceptions (an interval set, which only the policy
// changes) — its numeric
// ports as protocol . port ranges, and its named ports as destination address . protocol .
// port, each name resolved on the pods that may receive the traffic.

import { matchesLabels } from '../api/selectors/label.ts';
import { formatRange, mergeRanges, parseAddress, parseCidr, subtractRanges, type Family, type Range } from '../api/address-ranges.ts';
import type { NamespaceInfo, Peer, PodInfo, PolicyPort, Protocol } from './inputs.ts';

export interface Cluster {
  pods: PodInfo[];
  podsByNamespace: Map<string, PodInfo[]>;
  namespaceLabels: Map<string, Record<string, string>>;
}

export function cluster(pods: PodInfo[], namespaces: NamespaceInfo[]): Cluster {
  const podsByNamespace = new Map<string, PodInfo[]>();
  for (const p of pods) {
    const list = podsByNamespace.get(p.namespace);
    if (list) list.push(p); else podsByNamespace.set(p.namespace, [p]);
  }
  return { pods, podsByNamespace, namespaceLabels: new Map(namespaces.map(n => [n.name, n.labels])) };
}

function peerPods(peer: Extract<Peer, { kind: 'pods' }>, policyNamespace: string, c: Cluster): PodInfo[] {
  // the namespaces first (few), then only their pods
  const namespaces = peer.namespaceSelector
    ? [...c.namespaceLabels].filter(([, labels]) => matchesLabels(peer.namespaceSelector!, labels)).map(([name]) => name)
    : [policyNamespace];
  const pods = namespaces.flatMap(ns => c.podsByNamespace.get(ns) ?? []);
  return peer.podSelector ? pods.filter(p => matchesLabels(peer.podSelector!, p.labels)) : pods;
}

function ipBlockRanges(peer: Extract<Peer, { kind: 'ipBlock' }>, family: Family): Range[] {
  const block = parseCidr(peer.cidr);
  if (!block || block.family !== family) return [];
  const except = peer.except.map(parseCidr).filter(e => e?.family === family).map(e => e!.range);
  return subtractRanges([block.range], except);
}

/** the addresses of one family of the pods the selector peers choose, as plain set elements */
export function podPeerElements(peers: Peer[], policyNamespace: string, cluster: Cluster, family: Family): string[] {
  const out = new Set<string>();
  for (const peer of peers) {
    if (peer.kind !== 'pods') continue;
    for (const pod of peerPods(peer, policyNamespace, cluster)) for (const ip of pod.ips) if (parseAddress(ip)?.family === family) out.add(ip);
  }
  return [...out].sort();
}

/** the ipBlock peers of one family as interval set elements: the CIDRs less their exceptions, merged */
export function blockPeerElements(peers: Peer[], family: Family): string[] {
  const ranges: Range[] = [];
  for (const peer of peers) if (peer.kind === 'ipBlock') ranges.push(...ipBlockRanges(peer, family));
  return mergeRanges(ranges).map(r => formatRange(family, r));
}

const nftProtocol = (p: Protocol) => p.toLowerCase();

/** numeric ports (and protocols without a port: all of that protocol's ports) as `proto . port[-end]` */
export function portElements(ports: PolicyPort[]): string[] {
  const byProtocol = new Map<Protocol, Range[]>();
  for (const p of ports) {
    if (p.name !== undefined) continue;
    const from = p.port ?? 0;
    const to = p.port === undefined ? 65535 : Math.max(p.endPort ?? from, from);
    const list = byProtocol.get(p.protocol) ?? [];
    list.push({ from: BigInt(from), to: BigInt(to) });
    byProtocol.set(p.protocol, list);
  }
  const out: string[] = [];
  for (const protocol of [...byProtocol.keys()].sort()) {
    for (const r of mergeRanges(byProtocol.get(protocol)!)) out.push(`${nftProtocol(protocol)} . ${r.from === r.to ? r.from : `${r.from}-${r.to}`}`);
  }
  return out;
}

/** named ports resolved on `destinations` (each pod's own container ports) as `address . proto . port` */
export function namedPortElements(ports: PolicyPort[], destinations: PodInfo[], family: Family): string[] {
  const out = new Set<string>();
  for (const p of ports) {
    if (p.name === undefined) continue;
    for (const pod of destinations) {
      for (const cp of pod.namedPorts) {
        if (cp.name !== p.name || cp.protocol !== p.protocol) continue;
        for (const ip of pod.ips) if (parseAddress(ip)?.family === family) out.add(`${ip} . ${nftProtocol(cp.protocol)} . ${cp.port}`);
      }
    }
  }
  return [...out].sort();
}
