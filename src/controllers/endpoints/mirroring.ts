// EndpointSlices mirrored from the core/v1 Endpoints of a service without a selector (whose
// Endpoints users or other controllers write), as Kubernetes' EndpointSlice mirroring controller
// makes them: an endpoint per address (ready or not, hostname, nodeName, targetRef kept), grouped
// by address type and by each subset's ports, owned by the Endpoints, carrying its labels and
// annotations. Endpoints marked skip-mirror (the API server's own) are left alone.

import { isIP } from 'node:net';
import type { CoreV1EndpointAddress, DiscoveryV1Endpoint, DiscoveryV1EndpointPort } from '../../schema/generated/types.ts';
import type { EndpointsObject } from './endpoints-object.ts';
import type { AddressType, Service } from './pod-endpoint.ts';
import { managedByLabel, portsKey, serviceNameLabel, triggerTimeAnnotation, type Group } from './slice-reconcile.ts';

export const mirroringControllerName = 'endpointslicemirroring-controller.k8s.io';
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
const leaderElectionAnnotation = 'control-plane.alpha.kubernetes.io/leader';
const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** addresses mirrored per subset at most */
export const maxMirroredPerSubset = 1000;

/** a service without a selector, whose Endpoints are neither the API server's nor a leader-election lock */
export function shouldMirror(svc: Service | undefined, ep: EndpointsObject | undefined): boolean {
  if (!svc || !ep || svc.spec?.selector) return false;
  if (ep.metadata.labels?.[skipMirrorLabel] === 'true') return false;
  return ep.metadata.annotations?.[leaderElectionAnnotation] === undefined;
}

export function mirroredLabels(ep: EndpointsObject): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(ep.metadata.labels ?? {})) if (k !== managedByLabel && k !== serviceNameLabel) labels[k] = v;
  labels[serviceNameLabel] = ep.metadata.name;
  labels[managedByLabel] = mirroringControllerName;
  return labels;
}

export function mirroredAnnotations(ep: EndpointsObject): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ep.metadata.annotations ?? {})) if (k !== triggerTimeAnnotation && k !== lastAppliedAnnotation) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

function toEndpoint(a: CoreV1EndpointAddress, ready: boolean): DiscoveryV1Endpoint {
  const ep: DiscoveryV1Endpoint = { addresses: [a.ip], conditions: { ready } };
  if (a.hostname) ep.hostname = a.hostname;
  if (a.nodeName) ep.nodeName = a.nodeName;
  if (a.targetRef) ep.targetRef = a.targetRef;
  return ep;
}

export function mirroredGroups(ep: EndpointsObject): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const subset of ep.subsets ?? []) {
    const ports: DiscoveryV1EndpointPort[] = (subset.ports ?? []).map(p => {
      const out: DiscoveryV1EndpointPort = { name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP' };
      if (p.appProtocol) out.appProtocol = p.appProtocol;
      return out;
    });
    const all = [...(subset.addresses ?? []).map(a => [a, true] as const), ...(subset.notReadyAddresses ?? []).map(a => [a, false] as const)].slice(0, maxMirroredPerSubset);
    for (const [a, ready] of all) {
      const family = isIP(a.ip);
      if (!family) continue;
      const type: AddressType = family === 6 ? 'IPv6' : 'IPv4';
      const key = portsKey(type, ports);
      let g = groups.get(key);
      if (!g) groups.set(key, g = { type, ports, endpoints: new Map() });
      g.endpoints.set(a.ip, toEndpoint(a, ready));
    }
  }
  return groups;
}
