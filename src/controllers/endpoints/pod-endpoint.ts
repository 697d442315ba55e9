// What a pod contributes to a Service's endpoints, as Kubernetes' endpoints and EndpointSlice
// controllers decide it: whether the pod is in at all, its address in the slice's family, its
// conditions, hostname and the port each service port resolves to on it.

import { isIP } from 'node:net';
import type { CoreV1Pod, CoreV1Service, CoreV1ServicePort, DiscoveryV1Endpoint } from '../../schema/generated/types.ts';
import type { ServedInNamespace } from '../../schema/served.ts';

export type Pod = ServedInNamespace<CoreV1Pod>;
export type Service = ServedInNamespace<CoreV1Service>;
export type AddressType = 'IPv4' | 'IPv6';

export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some(c => c.type === 'Ready' && c.status === 'True');
}

const terminal = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/**
 * A pod is an endpoint once it has an IP and until it is terminal; a pod being deleted only when
 * the caller keeps terminating endpoints (slices always do, Endpoints only for services that
 * publish not-ready addresses).
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (terminal(pod)) return false;
  if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** the pod's hostname is published when its subdomain names this service (headless DNS records) */
export function shouldSetHostname(pod: Pod, svc: Service): boolean {
  return !!pod.spec?.hostname && pod.spec.subdomain === svc.metadata.name && svc.metadata.namespace === pod.metadata.namespace;
}

function podIPs(pod: Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map(p => p.ip).filter((ip): ip is string => !!ip);
  return ips.length ? ips : pod.status?.podIP ? [pod.status.podIP] : [];
}

/** the pod's address of one family, if it has one */
export function podAddress(pod: Pod, type: AddressType): string | undefined {
  return podIPs(pod).find(ip => isIP(ip) === (type === 'IPv4' ? 4 : 6));
}

/** the families a service's endpoints are published in: its ipFamilies, or IPv4 (and IPv6 pods' family when headless without families) */
export function serviceAddressTypes(svc: Service, pods: Pod[]): AddressType[] {
  const families = (svc.spec?.ipFamilies ?? []).filter((f): f is AddressType => f === 'IPv4' || f === 'IPv6');
  if (families.length) return families;
  // a headless service without families (made before dual stack) follows its pods' addresses
  const found = new Set<AddressType>();
  for (const p of pods) for (const ip of podIPs(p)) found.add(isIP(ip) === 6 ? 'IPv6' : 'IPv4');
  return found.size ? [...found].sort() : ['IPv4'];
}

/**
 * The container port a service port reaches on this pod: a number as it is, a name looked up
 * among the ports of the containers (and of restartable init containers) with the same protocol.
 */
export function findPort(pod: Pod, sp: CoreV1ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter(c => c.restartPolicy === 'Always')];
  for (const c of containers) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** the slice endpoint for a pod; ready never while terminating unless not-ready addresses are published */
export function podToSliceEndpoint(pod: Pod, svc: Service, address: string, zone?: string): DiscoveryV1Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata.deletionTimestamp;
  const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
  const ep: DiscoveryV1Endpoint = {
    addresses: [address],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
  if (shouldSetHostname(pod, svc)) ep.hostname = pod.spec!.hostname;
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  if (zone) ep.zone = zone;
  return ep;
}
