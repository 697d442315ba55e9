// What cluster DNS answers from: the Services, EndpointSlices and pod addresses the informers
// hold, reduced to the few fields the records need and indexed the ways lookups go (by service,
// by address for reverse lookups). Plain data in, plain data out: the informers feed it, the
// lookups read it, and tests build it directly.

export interface PortView { name: string; protocol: string; port: number }

export interface ServiceView {
  namespace: string;
  name: string;
  type: string;
  /** empty for headless and ExternalName Services */
  clusterIPs: string[];
  headless: boolean;
  externalName?: string;
  ports: PortView[];
}

export interface EndpointView { addresses: string[]; hostname?: string; ready: boolean }

export interface SliceView {
  namespace: string;
  name: string;
  /** the Service the slice belongs to (its kubernetes.io/service-name label) */
  service: string;
  /** a slice without ports has one port -1, as CoreDNS marks it: addresses but no SRV */
  ports: PortView[];
  endpoints: EndpointView[];
}

const key = (namespace: string, name: string) => `${namespace}/${name}`;

export class ClusterIndex {
  private services = new Map<string, ServiceView>();
  private slices = new Map<string, Map<string, SliceView>>();
  private podNamespacesByIP = new Map<string, Map<string, number>>();
  private reverse?: { services: Map<string, ServiceView[]>; endpoints: Map<string, Array<{ slice: SliceView; hostname?: string }>> };
  /** Unix seconds of the last change: the SOA serial, as CoreDNS takes its informers' last modification */
  serial: number;
  synced = false;

  private nowSeconds: () => number;

  constructor(nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {
    this.nowSeconds = nowSeconds;
    this.serial = nowSeconds();
  }

  private changed(): void {
    this.reverse = undefined;
    this.serial = this.nowSeconds();
  }

  setService(s: ServiceView): void { this.services.set(key(s.namespace, s.name), s); this.changed(); }
  deleteService(namespace: string, name: string): void { this.services.delete(key(namespace, name)); this.changed(); }

  setSlice(s: SliceView): void {
    this.deleteSlice(s.namespace, s.name, false);
    const k = key(s.namespace, s.service);
    if (!this.slices.has(k)) this.slices.set(k, new Map());
    this.slices.get(k)!.set(s.name, s);
    this.changed();
  }

  deleteSlice(namespace: string, name: string, notify = true): void {
    for (const [k, m] of this.slices) {
      if (!k.startsWith(`${namespace}/`) || !m.delete(name)) continue;
      if (m.size === 0) this.slices.delete(k);
    }
    if (notify) this.changed();
  }

  /** a pod's addresses, counted per namespace (for `pods verified`) */
  addPodIPs(namespace: string, ips: string[], delta: 1 | -1): void {
    for (const ip of ips) {
      const m = this.podNamespacesByIP.get(ip) ?? new Map<string, number>();
      const n = (m.get(namespace) ?? 0) + delta;
      if (n > 0) m.set(namespace, n); else m.delete(namespace);
      if (m.size) this.podNamespacesByIP.set(ip, m); else this.podNamespacesByIP.delete(ip);
    }
  }

  service(namespace: string, name: string): ServiceView | undefined { return this.services.get(key(namespace, name)); }
  slicesOf(namespace: string, service: string): SliceView[] { return [...(this.slices.get(key(namespace, service))?.values() ?? [])]; }
  podInNamespace(ip: string, namespace: string): boolean { return !!this.podNamespacesByIP.get(ip)?.has(namespace); }

  private reverseIndex() {
    if (this.reverse) return this.reverse;
    const services = new Map<string, ServiceView[]>();
    for (const s of this.services.values()) for (const ip of s.clusterIPs) services.set(ip, [...(services.get(ip) ?? []), s]);
    const endpoints = new Map<string, Array<{ slice: SliceView; hostname?: string }>>();
    for (const m of this.slices.values()) {
      for (const slice of m.values()) {
        for (const e of slice.endpoints) {
          if (!e.ready) continue;
          for (const a of e.addresses) endpoints.set(a, [...(endpoints.get(a) ?? []), { slice, hostname: e.hostname }]);
        }
      }
    }
    this.reverse = { services, endpoints };
    return this.reverse;
  }

  servicesByClusterIP(ip: string): ServiceView[] { return this.reverseIndex().services.get(ip) ?? []; }
  /** ready endpoints holding this address, with the slice (and so the Service) they belong to */
  endpointsByIP(ip: string): Array<{ slice: SliceView; hostname?: string }> { return this.reverseIndex().endpoints.get(ip) ?? []; }
}

/** a Service object as the index keeps it */
export function serviceView(svc: any): ServiceView {
  const spec = svc.spec ?? {};
  const ips: string[] = (spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : []).filter((ip: string) => ip && ip !== 'None');
  const type = spec.type ?? 'ClusterIP';
  return {
    namespace: svc.metadata.namespace,
    name: svc.metadata.name,
    type,
    clusterIPs: type === 'ExternalName' ? [] : ips,
    headless: type !== 'ExternalName' && spec.clusterIP === 'None',
    ...(type === 'ExternalName' && spec.externalName ? { externalName: String(spec.externalName) } : {}),
    ports: (spec.ports ?? []).map((p: any) => ({ name: p.name ?? '', protocol: p.protocol ?? 'TCP', port: p.port })),
  };
}

/** an EndpointSlice as the index keeps it; a nil ready condition counts as ready, as the API documents it */
export function sliceView(slice: any): SliceView | undefined {
  const service = slice.metadata?.labels?.['kubernetes.io/service-name'];
  if (!service) return undefined;
  const ports: PortView[] = (slice.ports ?? []).map((p: any) => ({ name: p.name ?? '', protocol: p.protocol ?? '', port: p.port ?? -1 }));
  return {
    namespace: slice.metadata.namespace,
    name: slice.metadata.name,
    service,
    ports: ports.length ? ports : [{ name: '', protocol: '', port: -1 }],
    endpoints: (slice.endpoints ?? []).map((e: any) => ({ addresses: e.addresses ?? [], ...(e.hostname ? { hostname: e.hostname } : {}), ready: e.conditions?.ready !== false })),
  };
}
