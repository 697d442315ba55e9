// What the proxy reads of Services and EndpointSlices, for one address family: one entry per
// service port, with the endpoints of that port gathered from every slice of the Service. Pure:
// the rule generator turns these into rules, and tests build them from plain objects.

export type Family = 'ip' | 'ip6';
export type Protocol = 'tcp' | 'udp' | 'sctp';

export interface ProxyEndpoint {
  ip: string;
  port: number;
  /** conditions as EndpointSlice consumers read them: ready and serving unknown (unset) mean true */
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  nodeName?: string;
}

export interface ServicePort {
  namespace: string;
  name: string;
  /** the port's name in the Service (may be empty) */
  portName: string;
  protocol: Protocol;
  port: number;
  nodePort?: number;
  clusterIPs: string[];
  externalIPs: string[];
  /** status.loadBalancer.ingress[].ip */
  loadBalancerIPs: string[];
  /** sessionAffinity ClientIP: how long a client sticks to its endpoint */
  affinitySeconds?: number;
  internalLocal: boolean;
  externalLocal: boolean;
  endpoints: ProxyEndpoint[];
}

const isV6 = (ip: string) => ip.includes(':');
export const ofFamily = (family: Family) => (ip: string) => (family === 'ip6') === isV6(ip);

/** "namespace/name" of a Service, or of the Service an EndpointSlice belongs to */
export function serviceKeyOfSlice(slice: any): string | undefined {
  const name = slice?.metadata?.labels?.['kubernetes.io/service-name'];
  return name ? `${slice.metadata.namespace}/${name}` : undefined;
}

/** services the proxy ignores: headless, ExternalName, and those without a usable ClusterIP */
function proxied(svc: any): boolean {
  const spec = svc?.spec ?? {};
  if (spec.type === 'ExternalName') return false;
  return typeof spec.clusterIP === 'string' && spec.clusterIP !== '' && spec.clusterIP !== 'None';
}

function endpointsOf(slices: any[], family: Family, portName: string, protocol: string): ProxyEndpoint[] {
  const seen = new Map<string, ProxyEndpoint>();
  for (const slice of slices) {
    if (slice.addressType !== (family === 'ip6' ? 'IPv6' : 'IPv4')) continue;
    // a slice's port matches the Service port by name (both empty for an unnamed port) and protocol
    const p = (slice.ports ?? []).find((sp: any) => (sp?.name ?? '') === portName && (sp?.protocol ?? 'TCP') === protocol);
    if (!p || typeof p.port !== 'number') continue;
    for (const ep of slice.endpoints ?? []) {
      const ip = ep?.addresses?.[0];
      if (typeof ip !== 'string' || !ofFamily(family)(ip)) continue;
      const c = ep.conditions ?? {};
      const ready = c.ready !== false;
      const e: ProxyEndpoint = { ip, port: p.port, ready, serving: c.serving ?? ready, terminating: c.terminating === true, nodeName: ep.nodeName };
      const key = `${ip}:${p.port}`;
      // the same address in two slices (as during a move between slices): the readier one counts
      const old = seen.get(key);
      if (!old || (!old.ready && e.ready)) seen.set(key, e);
    }
  }
  return [...seen.values()].sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
}

/** every proxied port of these Services in `family`, with its endpoints from the slices (by "ns/name") */
export function servicePorts(services: any[], slicesByService: Map<string, any[]>, family: Family): ServicePort[] {
  const out: ServicePort[] = [];
  const fam = ofFamily(family);
  for (const svc of services) {
    if (!proxied(svc)) continue;
    const spec = svc.spec;
    const clusterIPs = ((spec.clusterIPs as string[] | undefined) ?? [spec.clusterIP]).filter(ip => ip && ip !== 'None' && fam(ip));
    if (clusterIPs.length === 0) continue;
    const ns = svc.metadata.namespace;
    const name = svc.metadata.name;
    const slices = slicesByService.get(`${ns}/${name}`) ?? [];
    const external = spec.type === 'NodePort' || spec.type === 'LoadBalancer';
    for (const port of spec.ports ?? []) {
      const protocol = String(port.protocol ?? 'TCP');
      if (!['TCP', 'UDP', 'SCTP'].includes(protocol)) continue;
      out.push({
        namespace: ns,
        name,
        portName: port.name ?? '',
        protocol: protocol.toLowerCase() as Protocol,
        port: port.port,
        nodePort: external && port.nodePort ? port.nodePort : undefined,
        clusterIPs,
        externalIPs: ((spec.externalIPs as string[] | undefined) ?? []).filter(fam),
        loadBalancerIPs: spec.type === 'LoadBalancer' ? ((svc.status?.loadBalancer?.ingress ?? []) as Array<{ ip?: string }>).map(i => i.ip ?? '').filter(ip => ip && fam(ip)) : [],
        affinitySeconds: spec.sessionAffinity === 'ClientIP' ? (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800) : undefined,
        internalLocal: spec.internalTrafficPolicy === 'Local',
        externalLocal: spec.externalTrafficPolicy === 'Local' && (external || (spec.externalIPs ?? []).length > 0),
        endpoints: endpointsOf(slices, family, port.name ?? '', protocol),
      });
    }
  }
  return out;
}

/**
 * Which endpoints carry traffic, as kube-proxy chooses them: ready ones; when none is ready,
 * those still serving while terminating (so connections drain rather than fail during a
 * rollout). `local` narrows to this node's endpoints first, for the Local traffic policies.
 */
export function usableEndpoints(endpoints: ProxyEndpoint[], nodeName?: string): ProxyEndpoint[] {
  const candidates = nodeName === undefined ? endpoints : endpoints.filter(e => e.nodeName === nodeName);
  const ready = candidates.filter(e => e.ready);
  if (ready.length) return ready;
  return candidates.filter(e => e.serving && e.terminating);
}
