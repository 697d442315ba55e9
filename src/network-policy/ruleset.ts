// The rule generator: policies, pods and namespaces in, the nftables ruleset of this node's table
// out, as data (sets with their elements, chains with their rules). Pure: the same inputs give
// the same ruleset, which is what lets updates be computed as differences.
//
// Shape of the table (inet family, one per node):
//   forward (hook): traffic between pods, bridged (br_netfilter) or routed, after any Service
//     DNAT, so a Service's traffic is judged against its endpoint pod;
//   input (hook): pod to this host (cluster DNS and the API server listen on the pod gateway):
//     the pod's egress is judged, the host not being a pod has no ingress side;
//   no output hook: the node's own traffic to its pods is always allowed, as the API's
//     documentation says and Calico and Cilium do (kubelet probes);
//   replies of accepted connections pass first (conntrack established/related);
//   a packet from an egress-isolated local pod goes to `egress`, which tries each policy
//   selecting that pod; a rule that matches goes on to `egress-allowed`, where a destination
//   that is an ingress-isolated local pod is judged by `ingress` the same way; no match: drop.
//   Allowed traffic is thus the union of the rules of every policy selecting the pod.

import { createHash } from 'node:crypto';
import { matchesLabels } from '../api/selectors/label.ts';
import { parseAddress, type Family } from '../api/address-ranges.ts';
import type { NamespaceInfo, PodInfo, PolicyInfo, PolicyRule } from './inputs.ts';
import { blockPeerElements, cluster as clusterOf, namedPortElements, podPeerElements, portElements, type Cluster } from './rule-matches.ts';

export interface NftSet { type: string; interval: boolean; elements: string[] }
export interface NftChain { hook?: 'forward' | 'input'; rules: string[] }
export interface Ruleset { sets: Map<string, NftSet>; chains: Map<string, NftChain> }

export interface GeneratorInput {
  /** this node: its pods are the ones filtered here */
  node: string;
  pods: PodInfo[];
  namespaces: NamespaceInfo[];
  policies: PolicyInfo[];
}

type Direction = 'ingress' | 'egress';

const addrType = (f: Family) => (f === 4 ? 'ipv4_addr' : 'ipv6_addr');
const ipKw = (f: Family) => (f === 4 ? 'ip' : 'ip6');
const v = (f: Family) => `v${f}`;

/** a stable short name for a policy's chains and sets, whatever characters its name holds */
export function policyId(namespace: string, name: string): string {
  return `np-${createHash('sha256').update(`${namespace}/${name}`).digest('hex').slice(0, 12)}`;
}

const addresses = (pods: PodInfo[], f: Family) => [...new Set(pods.flatMap(p => p.ips).filter(ip => parseAddress(ip)?.family === f))].sort();

export function generateRuleset(input: GeneratorInput): Ruleset {
  const sets = new Map<string, NftSet>();
  const chains = new Map<string, NftChain>();
  const cluster: Cluster = clusterOf(input.pods, input.namespaces);
  const local = input.pods.filter(p => p.node === input.node);
  const families: Family[] = local.some(p => p.ips.some(ip => parseAddress(ip)?.family === 6)) ? [4, 6] : [4];
  const isolated: Record<Direction, PodInfo[]> = { ingress: [], egress: [] };
  const dispatch: Record<Direction, string[]> = { ingress: [], egress: [] };

  const policies = [...input.policies].sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
  for (const policy of policies) {
    const selected = local.filter(p => p.namespace === policy.namespace && matchesLabels(policy.podSelector, p.labels));
    if (!selected.length) continue;
    const id = policyId(policy.namespace, policy.name);
    for (const dir of ['ingress', 'egress'] as const) {
      const rules = policy[dir];
      if (!rules) continue;
      isolated[dir].push(...selected);
      // a policy without rules for a direction only isolates: it allows nothing there
      if (!rules.length) continue;
      const chain: string[] = [];
      rules.forEach((rule, i) => chain.push(...ruleLines({ id, policy, dir, rule, index: i, selected, cluster, families, sets })));
      chains.set(`${id}-${dir}`, { rules: chain });
      const side = dir === 'ingress' ? 'daddr' : 'saddr';
      for (const f of families) sets.set(`${id}-pods-${v(f)}`, { type: addrType(f), interval: false, elements: addresses(selected, f) });
      for (const f of families) dispatch[dir].push(`${ipKw(f)} ${side} @${id}-pods-${v(f)} jump ${id}-${dir}`);
    }
  }

  for (const dir of ['ingress', 'egress'] as const) {
    for (const f of families) sets.set(`${dir}-isolated-${v(f)}`, { type: addrType(f), interval: false, elements: addresses(isolated[dir], f) });
  }
  const replies = 'ct state established,related accept';
  // IPv6 neighbour discovery is how pods find each other at all; no policy speaks of it
  const nd = families.includes(6) ? ['icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit, nd-router-advert } accept'] : [];
  chains.set('forward', {
    hook: 'forward',
    rules: [replies, ...nd, ...families.map(f => `${ipKw(f)} saddr @egress-isolated-${v(f)} goto egress`), ...families.map(f => `${ipKw(f)} daddr @ingress-isolated-${v(f)} goto ingress`)],
  });
  chains.set('input', { hook: 'input', rules: [replies, ...nd, ...families.map(f => `${ipKw(f)} saddr @egress-isolated-${v(f)} goto egress`)] });
  chains.set('egress', { rules: [...dispatch.egress, 'counter drop'] });
  chains.set('egress-allowed', { rules: [...families.map(f => `${ipKw(f)} daddr @ingress-isolated-${v(f)} goto ingress`), 'accept'] });
  chains.set('ingress', { rules: [...dispatch.ingress, 'counter drop'] });
  return { sets, chains };
}

interface RuleContext {
  id: string;
  policy: PolicyInfo;
  dir: Direction;
  rule: PolicyRule;
  index: number;
  /** this node's pods the policy selects */
  selected: PodInfo[];
  cluster: Cluster;
  families: Family[];
  sets: Map<string, NftSet>;
}

/** a rule as nft rules: (peer match) × (numeric ports | named ports), each ending in the allow verdict */
function ruleLines(c: RuleContext): string[] {
  const base = `${c.id}-${c.dir}-${c.index}`;
  const peerSide = c.dir === 'ingress' ? 'saddr' : 'daddr';
  // matches tagged with the family they apply to; untagged ones apply to both
  const peers: Array<{ match: string; family?: Family }> = [];
  if (!c.rule.peers) peers.push({ match: '' });
  else for (const f of c.families) {
    if (c.rule.peers.some(p => p.kind === 'pods')) {
      c.sets.set(`${base}-peer-pods-${v(f)}`, { type: addrType(f), interval: false, elements: podPeerElements(c.rule.peers, c.policy.namespace, c.cluster, f) });
      peers.push({ match: `${ipKw(f)} ${peerSide} @${base}-peer-pods-${v(f)} `, family: f });
    }
    if (c.rule.peers.some(p => p.kind === 'ipBlock')) {
      c.sets.set(`${base}-peer-blocks-${v(f)}`, { type: addrType(f), interval: true, elements: blockPeerElements(c.rule.peers, f) });
      peers.push({ match: `${ipKw(f)} ${peerSide} @${base}-peer-blocks-${v(f)} `, family: f });
    }
  }
  const ports: Array<{ match: string; family?: Family }> = [];
  if (!c.rule.ports) ports.push({ match: '' });
  else {
    if (c.rule.ports.some(p => p.name === undefined)) {
      c.sets.set(`${base}-ports`, { type: 'inet_proto . inet_service', interval: true, elements: portElements(c.rule.ports) });
      ports.push({ match: `meta l4proto . th dport @${base}-ports ` });
    }
    if (c.rule.ports.some(p => p.name !== undefined)) {
      // a named port is the destination pod's: the selected pod for ingress, the peer for egress
      const destinations = c.dir === 'ingress' ? c.selected : c.cluster.pods;
      for (const f of c.families) {
        c.sets.set(`${base}-named-${v(f)}`, { type: `${addrType(f)} . inet_proto . inet_service`, interval: false, elements: namedPortElements(c.rule.ports, destinations, f) });
        ports.push({ match: `${ipKw(f)} daddr . meta l4proto . th dport @${base}-named-${v(f)} `, family: f });
      }
    }
  }
  const verdict = c.dir === 'ingress' ? 'accept' : 'goto egress-allowed';
  const comment = JSON.stringify(`${c.policy.namespace}/${c.policy.name} ${c.dir} rule ${c.index}`.slice(0, 120));
  const out: string[] = [];
  for (const p of peers) for (const q of ports) {
    if (p.family && q.family && p.family !== q.family) continue;
    out.push(`${p.match}${q.match}${verdict} comment ${comment}`);
  }
  return out;
}
