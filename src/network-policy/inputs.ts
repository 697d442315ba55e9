// What the rule generator reads, taken from API objects: pods (addresses, labels, node, named
// container ports), namespaces (labels) and NetworkPolicies with networking/v1's defaults
// applied (policyTypes from the rules present, protocol TCP), in case a server stored them
// without. Only what enforcement needs is kept, so the informers hold little per pod.

import { labelSelectorFromObject, nothing, type LabelSelector } from '../api/selectors/label.ts';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface PodInfo {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  node: string;
  ips: string[];
  /** named container ports (of containers and restartable init containers) */
  namedPorts: Array<{ name: string; protocol: Protocol; port: number }>;
}

export interface NamespaceInfo { name: string; labels: Record<string, string> }

export type Peer =
  | { kind: 'pods'; podSelector?: LabelSelector; namespaceSelector?: LabelSelector }
  | { kind: 'ipBlock'; cidr: string; except: string[] };

export interface PolicyPort { protocol: Protocol; port?: number; endPort?: number; name?: string }

export interface PolicyRule {
  /** undefined: every peer (the field empty or missing) */
  peers?: Peer[];
  /** undefined: every port and protocol */
  ports?: PolicyPort[];
}

export interface PolicyInfo {
  namespace: string;
  name: string;
  podSelector: LabelSelector;
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

/** a selector, or one that matches nothing when it does not parse (a bad peer allows nothing) */
function selector(obj: unknown): LabelSelector {
  try { return labelSelectorFromObject(obj); } catch { return nothing; }
}

/** the pod's addresses, unless its network is the node's or it has ended (its address may be anyone's now) */
export function podInfo(pod: any): PodInfo | undefined {
  const phase = pod?.status?.phase;
  if (pod?.spec?.hostNetwork || phase === 'Succeeded' || phase === 'Failed') return undefined;
  const ips: string[] = (pod?.status?.podIPs ?? []).map((p: any) => p?.ip).filter(Boolean);
  if (!ips.length && pod?.status?.podIP) ips.push(pod.status.podIP);
  if (!ips.length) return undefined;
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c: any) => c?.restartPolicy === 'Always')];
  const namedPorts: PodInfo['namedPorts'] = [];
  for (const c of containers) for (const p of c?.ports ?? []) {
    if (p?.name && Number.isInteger(p.containerPort)) namedPorts.push({ name: p.name, protocol: (p.protocol ?? 'TCP') as Protocol, port: p.containerPort });
  }
  return { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', labels: pod.metadata?.labels ?? {}, node: pod.spec?.nodeName ?? '', ips, namedPorts };
}

export function namespaceInfo(ns: any): NamespaceInfo {
  return { name: ns?.metadata?.name ?? '', labels: ns?.metadata?.labels ?? {} };
}

function peer(p: any): Peer | undefined {
  if (p?.ipBlock) return typeof p.ipBlock.cidr === 'string' ? { kind: 'ipBlock', cidr: p.ipBlock.cidr, except: (p.ipBlock.except ?? []).map(String) } : undefined;
  if (!p?.podSelector && !p?.namespaceSelector) return undefined;
  return {
    kind: 'pods',
    ...(p.podSelector ? { podSelector: selector(p.podSelector) } : {}),
    ...(p.namespaceSelector ? { namespaceSelector: selector(p.namespaceSelector) } : {}),
  };
}

function port(p: any): PolicyPort {
  const protocol: Protocol = p?.protocol ?? 'TCP';
  if (typeof p?.port === 'string') return { protocol, name: p.port };
  if (typeof p?.port !== 'number') return { protocol };
  return { protocol, port: p.port, ...(typeof p.endPort === 'number' ? { endPort: p.endPort } : {}) };
}

function rules(list: any[] | undefined, peersField: 'from' | 'to'): PolicyRule[] {
  return (list ?? []).map(r => {
    const rule: PolicyRule = {};
    // a peer that is none of the three kinds (refused by validation) matches nothing
    if (r?.[peersField]?.length) rule.peers = r[peersField].map(peer).filter((x: Peer | undefined): x is Peer => !!x);
    if (r?.ports?.length) rule.ports = r.ports.map(port);
    return rule;
  });
}

/**
 * a policy as enforced: a direction missing from policyTypes is not isolated by it (undefined);
 * policyTypes absent means Ingress, plus Egress when it has egress rules, as the API defaults it
 */
export function policyInfo(np: any): PolicyInfo {
  const spec = np?.spec ?? {};
  const types: string[] = spec.policyTypes?.length ? spec.policyTypes : ['Ingress', ...(spec.egress?.length ? ['Egress'] : [])];
  return {
    namespace: np?.metadata?.namespace ?? '',
    name: np?.metadata?.name ?? '',
    podSelector: selector(spec.podSelector ?? {}),
    ...(types.includes('Ingress') ? { ingress: rules(spec.ingress, 'from') } : {}),
    ...(types.includes('Egress') ? { egress: rules(spec.egress, 'to') } : {}),
  };
}
