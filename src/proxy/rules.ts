// The rule generator: service ports and this node's facts in, one nftables table out, laid out as
// kube-proxy's nftables mode lays out its own. Packets to a service address meet one verdict map
// lookup (`service-ips`, `service-nodeports`) that jumps to the port's chain; that chain picks an
// endpoint at random (`numgen`) or by client affinity, and the endpoint's chain DNATs. Traffic to
// a port with no endpoints is rejected before NAT (`no-endpoint-*` maps in filter chains), or
// dropped where only a Local policy leaves it nowhere to go. Pure: no I/O, same input, same table.

import { affinitySet, endpointChain, externalChain, localChain, serviceChain } from './chain-names.ts';
import { emptyRuleset, type Chain, type NftSet, type Ruleset } from './ruleset.ts';
import { usableEndpoints, type Family, type ProxyEndpoint, type ServicePort } from './service-ports.ts';

export interface NodeFacts {
  nodeName: string;
  /** this node's addresses of the family, where node ports answer */
  nodeIPs: string[];
  /** the pod network: traffic from outside it to a ClusterIP is masqueraded */
  clusterCIDRs: string[];
  /** node ports also on 127.0.0.1 (IPv4 only; needs route_localnet, as kube-proxy's iptables mode) */
  localhostNodePorts: boolean;
  /** the table's name (default orch-proxy) */
  table?: string;
}

export const defaultTable = 'orch-proxy';
const masqMark = '0x4000';

/** the set of addresses, as one nft value: a single address, or an anonymous set */
const anyOf = (xs: string[]) => (xs.length === 1 ? xs[0]! : `{ ${xs.join(', ')} }`);

function staticPart(r: Ruleset, facts: NodeFacts): void {
  const f = r.family;
  const addr = f === 'ip' ? 'ipv4_addr' : 'ipv6_addr';
  const base = (type: string, hook: string, priority: string) => `type ${type} hook ${hook} priority ${priority}; policy accept;`;
  const chain = (name: string, rules: string[], hook?: string) => r.chains.set(name, { hook, rules });
  chain('nat-prerouting', ['jump services'], base('nat', 'prerouting', 'dstnat'));
  chain('nat-output', ['jump services'], base('nat', 'output', '-100'));
  chain('nat-postrouting', ['jump masquerading'], base('nat', 'postrouting', 'srcnat'));
  // before DNAT (priority -110 < -100), so these still see the service address
  const input = ['ct state new jump nodeport-endpoints-check', 'ct state new jump service-endpoints-check'];
  // a martian from outside to 127/8 is dropped unless it is a reply or was DNATed: with
  // route_localnet on, the host must not route such packets (CVE-2020-8558)
  if (f === 'ip' && facts.localhostNodePorts) input.push('ip saddr != 127.0.0.0/8 ip daddr 127.0.0.0/8 ct state new ct status ! dnat drop');
  chain('filter-input', input, base('filter', 'input', '-110'));
  chain('filter-forward', ['ct state new jump service-endpoints-check', 'ct state new jump cluster-ips-check'], base('filter', 'forward', '-110'));
  chain('filter-output', ['ct state new jump service-endpoints-check', 'ct state new jump nodeport-endpoints-check'], base('filter', 'output', '-110'));
  // after DNAT: what still goes to a ClusterIP here matched no service port
  chain('filter-output-post-dnat', ['ct state new jump cluster-ips-check'], base('filter', 'output', '-90'));
  chain('mark-for-masquerade', [`mark set mark or ${masqMark}`]);
  chain('masquerading', [`mark and ${masqMark} == 0 return`, `mark set mark xor ${masqMark}`, 'masquerade fully-random']);
  chain('services', [`${f} daddr . meta l4proto . th dport vmap @service-ips`, `${f} daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports`]);
  chain('service-endpoints-check', [`${f} daddr . meta l4proto . th dport vmap @no-endpoint-services`]);
  chain('nodeport-endpoints-check', [`${f} daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports`]);
  chain('cluster-ips-check', [`${f} daddr @cluster-ips reject`]);
  chain('reject-chain', ['reject']);
  const set = (name: string, kind: 'set' | 'map', spec: string) => r.sets.set(name, { kind, spec, elements: [] });
  set('service-ips', 'map', `type ${addr} . inet_proto . inet_service : verdict ;`);
  set('no-endpoint-services', 'map', `type ${addr} . inet_proto . inet_service : verdict ;`);
  set('service-nodeports', 'map', 'type inet_proto . inet_service : verdict ;');
  set('no-endpoint-nodeports', 'map', 'type inet_proto . inet_service : verdict ;');
  set('nodeport-ips', 'set', `type ${addr} ;`);
  set('cluster-ips', 'set', `type ${addr} ;`);
  const nodePortIPs = [...facts.nodeIPs, ...(f === 'ip' && facts.localhostNodePorts ? ['127.0.0.1'] : [])];
  r.sets.get('nodeport-ips')!.elements.push(...new Set(nodePortIPs));
}

/**
 * What some service ports add to the table: their own chains and affinity sets, and their
 * elements in the shared maps and sets. A proxy keeps one per Service and makes it again only
 * when that Service or its slices change (kube-proxy's partial syncs work per service, too).
 */
export interface Fragment {
  chains: Map<string, Chain>;
  sets: Map<string, NftSet>;
  /** [shared set or map, element] */
  elements: Array<[string, string]>;
}

/** the rules of one service port */
function servicePortRules(r: Fragment, f: Family, sp: ServicePort, facts: NodeFacts): void {
  const el = (name: string, e: string) => r.elements.push([name, e]);
  const clusterEps = usableEndpoints(sp.endpoints);
  const localEps = usableEndpoints(sp.endpoints, facts.nodeName);
  const hasExternal = sp.nodePort !== undefined || sp.externalIPs.length > 0 || sp.loadBalancerIPs.length > 0;
  const internalEps = sp.internalLocal ? localEps : clusterEps;
  const externalEps = sp.externalLocal ? localEps : clusterEps;
  // no endpoint anywhere: a reject (connection refused); endpoints only elsewhere under a Local policy: a drop
  const verdict = (eps: ProxyEndpoint[]) => (clusterEps.length === 0 ? 'goto reject-chain' : eps.length === 0 ? 'drop' : undefined);
  const internalVerdict = verdict(internalEps);
  const externalVerdict = verdict(externalEps);
  const svcChain = serviceChain(sp);
  const locChain = localChain(sp);
  const extChain = externalChain(sp);
  const target = (sp.internalLocal ? locChain : svcChain);
  const proto = sp.protocol;

  for (const ip of sp.clusterIPs) {
    el('cluster-ips', ip);
    const key = `${ip} . ${proto} . ${sp.port}`;
    if (internalVerdict) el('no-endpoint-services', `${key} : ${internalVerdict}`);
    else el('service-ips', `${key} : goto ${target}`);
  }
  for (const ip of [...sp.externalIPs, ...sp.loadBalancerIPs]) {
    const key = `${ip} . ${proto} . ${sp.port}`;
    if (externalVerdict) el('no-endpoint-services', `${key} : ${externalVerdict}`);
    else el('service-ips', `${key} : goto ${extChain}`);
  }
  if (sp.nodePort !== undefined) {
    const key = `${proto} . ${sp.nodePort}`;
    if (externalVerdict) el('no-endpoint-nodeports', `${key} : ${externalVerdict}`);
    else el('service-nodeports', `${key} : goto ${extChain}`);
  }

  const affinity = sp.affinitySeconds;
  const pick = (eps: ProxyEndpoint[]): string[] => {
    const rules: string[] = [];
    // a client seen lately goes back to its endpoint, while that endpoint is still a choice
    if (affinity !== undefined) for (const ep of eps) rules.push(`${f} saddr @${affinitySet(sp, ep, affinity)} goto ${endpointChain(sp, ep)}`);
    rules.push(`numgen random mod ${eps.length} vmap { ${eps.map((ep, i) => `${i} : goto ${endpointChain(sp, ep)}`).join(' , ')} }`);
    return rules;
  };
  const used = new Map<string, ProxyEndpoint>();
  const uses = (eps: ProxyEndpoint[]) => { for (const ep of eps) used.set(endpointChain(sp, ep), ep); };
  if (clusterEps.length && (!sp.internalLocal || hasExternal)) {
    uses(clusterEps);
    // traffic from outside the pod network to the ClusterIP is masqueraded, so replies come back through this node
    const masq = facts.clusterCIDRs.length ? sp.clusterIPs.map(ip => `${f} daddr ${ip} ${proto} dport ${sp.port} ${f} saddr != ${anyOf(facts.clusterCIDRs)} jump mark-for-masquerade`) : [];
    r.chains.set(svcChain, { rules: [...masq, ...pick(clusterEps)] });
  }
  if (localEps.length && (sp.internalLocal || (hasExternal && sp.externalLocal))) {
    uses(localEps);
    r.chains.set(locChain, { rules: pick(localEps) });
  }
  if (hasExternal && !externalVerdict) {
    const rules = sp.externalLocal
      // Local: the client's address is kept, so only this node's endpoints; pods and the
      // host itself still reach every endpoint, as the cluster policy would take them
      ? [
          ...(facts.clusterCIDRs.length ? [`${f} saddr ${anyOf(facts.clusterCIDRs)} goto ${svcChain}`] : []),
          'fib saddr type local jump mark-for-masquerade',
          `fib saddr type local goto ${svcChain}`,
          `goto ${locChain}`,
        ]
      : ['jump mark-for-masquerade', `goto ${svcChain}`];
    r.chains.set(extChain, { rules });
  }
  for (const [name, ep] of used) {
    const rules: string[] = [
      // hairpin: a pod reaching itself through its Service would get a reply from its own address
      `${f} saddr ${ep.ip} jump mark-for-masquerade`,
    ];
    if (affinity !== undefined) {
      const setName = affinitySet(sp, ep, affinity);
      r.sets.set(setName, { kind: 'set', spec: `type ${f === 'ip' ? 'ipv4_addr' : 'ipv6_addr'} ; flags dynamic,timeout ; timeout ${affinity}s ;`, elements: [], dynamic: true });
      rules.push(`update @${setName} { ${f} saddr }`);
    }
    rules.push(`meta l4proto ${proto} dnat to ${f === 'ip6' ? `[${ep.ip}]` : ep.ip}:${ep.port}`);
    r.chains.set(name, { rules } satisfies Chain);
  }
}

/** the fragment of these service ports */
export function serviceFragment(family: Family, ports: ServicePort[], facts: NodeFacts): Fragment {
  const frag: Fragment = { chains: new Map(), sets: new Map(), elements: [] };
  for (const sp of ports) servicePortRules(frag, family, sp, facts);
  return frag;
}

/** the whole table for one family from the fragments of its services */
export function assembleRuleset(family: Family, facts: NodeFacts, fragments: Iterable<Fragment>): Ruleset {
  const r = emptyRuleset(family, facts.table ?? defaultTable);
  staticPart(r, facts);
  for (const frag of fragments) {
    for (const [name, c] of frag.chains) r.chains.set(name, c);
    for (const [name, s] of frag.sets) r.sets.set(name, s);
    for (const [name, e] of frag.elements) r.sets.get(name)!.elements.push(e);
  }
  // one element per key: two services claiming one address and port (an externalIP another
  // service also has) would otherwise fail the whole transaction; the first one keeps it
  for (const s of r.sets.values() as Iterable<NftSet>) {
    if (s.dynamic) continue;
    const byKey = new Map<string, string>();
    for (const e of s.elements) { const k = s.kind === 'map' ? e.slice(0, e.lastIndexOf(' : ')) : e; if (!byKey.has(k)) byKey.set(k, e); }
    s.elements = [...byKey.values()];
  }
  return r;
}

/** the whole table for one family */
export function generateRuleset(family: Family, ports: ServicePort[], facts: NodeFacts): Ruleset {
  return assembleRuleset(family, facts, [serviceFragment(family, ports, facts)]);
}
