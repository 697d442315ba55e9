// The core/v1 Endpoints of a Service, as the endpoints controller computes them: each pod's
// address once per service port it resolves, ready or not ready, then repacked so that addresses
// serving the same set of ports share a subset (Kubernetes' RepackSubsets), in a stable order.

import type { CoreV1EndpointAddress, CoreV1EndpointPort, CoreV1EndpointSubset } from '../../schema/generated/types.ts';
import { findPort, isPodReady, podAddress, shouldPodBeInEndpoints, shouldSetHostname, type AddressType, type Pod, type Service } from './pod-endpoint.ts';

/** Endpoints hold at most this many addresses; beyond it they are truncated and annotated */
export const maxEndpointsCapacity = 1000;

interface Entry { address: CoreV1EndpointAddress; ready: boolean; port?: CoreV1EndpointPort }

function addressFor(pod: Pod, svc: Service): CoreV1EndpointAddress | undefined {
  const family: AddressType = svc.spec?.ipFamilies?.[0] === 'IPv6' ? 'IPv6' : 'IPv4';
  const ip = podAddress(pod, family);
  if (!ip) return undefined;
  const a: CoreV1EndpointAddress = { ip };
  if (shouldSetHostname(pod, svc)) a.hostname = pod.spec!.hostname;
  if (pod.spec?.nodeName) a.nodeName = pod.spec.nodeName;
  a.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
  return a;
}

const portKey = (p: CoreV1EndpointPort) => `${p.name ?? ''}\u0000${p.port}\u0000${p.protocol ?? ''}\u0000${p.appProtocol ?? ''}`;
const addressKey = (a: CoreV1EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
const byIP = (a: CoreV1EndpointAddress, b: CoreV1EndpointAddress) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : addressKey(a) < addressKey(b) ? -1 : 1);

/** the subsets for a service's selected pods (the caller selects them by the service's selector) */
export function endpointSubsets(svc: Service, pods: Pod[]): CoreV1EndpointSubset[] {
  const publish = !!svc.spec?.publishNotReadyAddresses;
  const entries: Entry[] = [];
  const ports = svc.spec?.ports ?? [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publish)) continue;
    const address = addressFor(pod, svc);
    if (!address) continue;
    const ready = publish || isPodReady(pod);
    if (!ports.length) {
      // a headless service may have no ports: its addresses alone are published
      if (svc.spec?.clusterIP === 'None') entries.push({ address, ready });
      continue;
    }
    for (const sp of ports) {
      const n = findPort(pod, sp);
      if (n === undefined) continue;
      const port: CoreV1EndpointPort = { name: sp.name ?? '', port: n, protocol: sp.protocol ?? 'TCP' };
      if (sp.appProtocol) port.appProtocol = sp.appProtocol;
      entries.push({ address, ready, port });
    }
  }
  return repack(entries);
}

function repack(entries: Entry[]): CoreV1EndpointSubset[] {
  // each address's ports, and whether it is ready (ready wins if it is both)
  const byAddress = new Map<string, { address: CoreV1EndpointAddress; ready: boolean; ports: Map<string, CoreV1EndpointPort> }>();
  for (const e of entries) {
    const k = addressKey(e.address);
    let a = byAddress.get(k);
    if (!a) byAddress.set(k, a = { address: e.address, ready: e.ready, ports: new Map() });
    a.ready ||= e.ready;
    if (e.port) a.ports.set(portKey(e.port), e.port);
  }
  const groups = new Map<string, { ports: CoreV1EndpointPort[]; ready: CoreV1EndpointAddress[]; notReady: CoreV1EndpointAddress[] }>();
  for (const a of byAddress.values()) {
    const keys = [...a.ports.keys()].sort();
    const gk = keys.join('\u0001');
    let g = groups.get(gk);
    if (!g) groups.set(gk, g = { ports: keys.map(k => a.ports.get(k)!), ready: [], notReady: [] });
    (a.ready ? g.ready : g.notReady).push(a.address);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => {
    const s: CoreV1EndpointSubset = {};
    if (g.ready.length) s.addresses = g.ready.sort(byIP);
    if (g.notReady.length) s.notReadyAddresses = g.notReady.sort(byIP);
    if (g.ports.length) s.ports = g.ports;
    return s;
  });
}

/**
 * Subsets cut to the capacity: not-ready addresses go first, each subset keeping its share
 * (rounded up) of what remains, as Kubernetes truncates. True when anything was cut.
 */
export function truncateSubsets(subsets: CoreV1EndpointSubset[], max = maxEndpointsCapacity): boolean {
  let ready = 0, notReady = 0;
  for (const s of subsets) { ready += s.addresses?.length ?? 0; notReady += s.notReadyAddresses?.length ?? 0; }
  if (ready + notReady <= max) return false;
  const cutReady = ready > max;
  const room = cutReady ? max : max - ready;
  const total = cutReady ? ready : notReady;
  let left = room;
  for (const s of subsets) {
    const n = (cutReady ? s.addresses?.length : s.notReadyAddresses?.length) ?? 0;
    const take = Math.min(Math.ceil((n / total) * room), left);
    if (cutReady) {
      s.addresses = s.addresses?.slice(0, take);
      delete s.notReadyAddresses;
      left -= s.addresses?.length ?? 0;
    } else {
      s.notReadyAddresses = s.notReadyAddresses?.slice(0, take);
      left -= s.notReadyAddresses?.length ?? 0;
    }
  }
  return true;
}
