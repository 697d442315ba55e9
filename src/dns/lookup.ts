// The records a name in the cluster zone has, before they become DNS answers: each an address
// (or, for an ExternalName Service, a host name) with a port and the name it is known by, as
// CoreDNS's kubernetes plugin finds them. `undefined` means no such name (NXDOMAIN); an empty
// list means the name exists without records (NODATA).

import { isIP } from 'node:net';
import type { ClusterIndex, PortView, ServiceView } from './cluster-index.ts';
import { endpointHostname, podNameAddress, type RecordRequest } from './names.ts';

export interface Found {
  /** an IP address, or the host name of an ExternalName Service */
  host: string;
  /** -1: no port (a headless Service without ports) */
  port: number;
  /** the name the record belongs to, as SRV targets name it (no final dot) */
  target: string;
}

export type PodMode = 'disabled' | 'insecure' | 'verified';

export interface LookupOptions {
  index: ClusterIndex;
  podMode: PodMode;
}

/** port and protocol of a request match a port's when given (case-insensitive) */
const portMatches = (r: RecordRequest, p: { name: string; protocol: string }) =>
  (!r.port || r.port === p.name.toLowerCase()) && (!r.protocol || r.protocol === p.protocol.toLowerCase());

function serviceRecords(o: LookupOptions, svc: ServiceView, r: RecordRequest, zone: string): Found[] | undefined {
  const svcName = `${svc.name}.${svc.namespace}.svc.${zone}`;
  if (svc.type === 'ExternalName') {
    // no endpoints and no port names under it; an ExternalName that is an address has no CNAME
    if (r.endpoint || r.port || r.protocol || !svc.externalName || isIP(svc.externalName)) return undefined;
    return [{ host: svc.externalName, port: 0, target: svcName }];
  }
  if (svc.headless || r.endpoint) {
    const out: Found[] = [];
    let found = false;
    for (const slice of o.index.slicesOf(svc.namespace, svc.name)) {
      for (const e of slice.endpoints) {
        if (!e.ready) continue;
        for (const ip of e.addresses) {
          const host = endpointHostname(ip, e.hostname);
          if (r.endpoint && r.endpoint !== host.toLowerCase()) continue;
          for (const p of slice.ports) {
            if (!portMatches(r, p)) continue;
            found = true;
            out.push({ host: ip, port: p.port, target: `${host}.${svcName}` });
          }
        }
      }
    }
    return found ? out : undefined;
  }
  // a matching port makes the name exist, with or without an address yet
  const ports = (svc.ports as PortView[]).filter(p => portMatches(r, p));
  if (!ports.length) return undefined;
  return ports.flatMap(p => svc.clusterIPs.map(ip => ({ host: ip, port: p.port, target: svcName })));
}

function podRecords(o: LookupOptions, r: RecordRequest, zone: string): Found[] | undefined {
  if (o.podMode === 'disabled') return undefined;
  if (!r.service) return [];
  const ip = podNameAddress(r.service);
  if (!ip) return undefined;
  if (o.podMode === 'verified' && !o.index.podInNamespace(ip, r.namespace)) return undefined;
  return [{ host: ip, port: 0, target: `${r.service}.${r.namespace}.pod.${zone}` }];
}

/** the records of a parsed name in the zone (`zone` as the question spelled it) */
export function findRecords(o: LookupOptions, r: RecordRequest, zone: string): Found[] | undefined {
  // the apex, svc, pod and every namespace under them exist, without records
  if (!r.podOrSvc || !r.namespace) return [];
  if (r.podOrSvc === 'pod') return podRecords(o, r, zone);
  if (!r.service) return [];
  const svc = o.index.service(r.namespace, r.service);
  return svc ? serviceRecords(o, svc, r, zone) : undefined;
}

/** the names an address has: the Service whose ClusterIP it is, else every endpoint holding it */
export function reverseNames(index: ClusterIndex, ip: string, zone: string): string[] {
  const svc = index.servicesByClusterIP(ip)[0];
  if (svc) return [`${svc.name}.${svc.namespace}.svc.${zone}`];
  return index.endpointsByIP(ip).map(({ slice, hostname }) => `${endpointHostname(ip, hostname)}.${slice.service}.${slice.namespace}.svc.${zone}`);
}

/**
 * the name servers of the zone: the Services whose endpoints hold this server's own addresses
 * (kube-dns), by ClusterIP; when none does, the server's addresses under ns.dns.<zone>. As
 * CoreDNS finds its own Service by its pod's address
 */
export function nameServers(index: ClusterIndex, localIPs: string[], zone: string, localPort?: number): Array<{ name: string; ip: string }> {
  const out: Array<{ name: string; ip: string }> = [];
  let found = false;
  for (const local of localIPs) {
    for (const { slice } of index.endpointsByIP(local)) {
      // on one host other Services' endpoints (the API server's) share the address: the port tells this server's apart
      if (localPort !== undefined && !slice.ports.some(p => p.port === localPort)) continue;
      found = true;
      const svc = index.service(slice.namespace, slice.service);
      if (!svc) continue;
      const name = `${svc.name}.${svc.namespace}.svc.${zone}`;
      if (svc.headless) {
        for (const e of slice.endpoints) for (const a of e.addresses) if (e.ready) out.push({ name: `${endpointHostname(a, e.hostname)}.${name}`, ip: a });
      } else {
        for (const ip of svc.clusterIPs) out.push({ name, ip });
      }
    }
  }
  if (!found) for (const ip of localIPs) out.push({ name: `ns.dns.${zone}`, ip });
  // one slice per address family holds the same server twice
  return out.filter((x, i) => out.findIndex(y => y.name === x.name && y.ip === x.ip) === i);
}
