// Names of the per-service chains and sets, in the shape kube-proxy's nftables mode gives them:
// a kind, a short hash, then what a person reads (`service-1A2B3C4D-ns/name/tcp/http`). The hash
// keeps names unique where the readable part is not (an IPv6 address loses its colons, which nft
// does not take in a name) and lets one service's chains be found by eye in `nft list table`.

import { createHash } from 'node:crypto';
import type { ProxyEndpoint, ServicePort } from './service-ports.ts';

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8).toUpperCase();

/** ns/name/proto/portName, as kube-proxy names a service port */
export function portId(sp: ServicePort): string {
  return `${sp.namespace}/${sp.name}/${sp.protocol}/${sp.portName}`;
}

const named = (kind: string, id: string) => `${kind}-${hash(`${kind}:${id}`)}-${id}`;

export const serviceChain = (sp: ServicePort) => named('service', portId(sp));
export const localChain = (sp: ServicePort) => named('local', portId(sp));
export const externalChain = (sp: ServicePort) => named('external', portId(sp));

const endpointId = (sp: ServicePort, ep: ProxyEndpoint) => `${portId(sp)}__${ep.ip.replaceAll(':', '.')}/${ep.port}`;

export const endpointChain = (sp: ServicePort, ep: ProxyEndpoint) => `endpoint-${hash(`${portId(sp)}@${ep.ip}/${ep.port}`)}-${endpointId(sp, ep)}`;

/** the timeout is part of the name: a changed timeout is a new set, the old one left to go */
export const affinitySet = (sp: ServicePort, ep: ProxyEndpoint, seconds: number) =>
  `affinity-${hash(`${portId(sp)}@${ep.ip}/${ep.port}@${seconds}`)}-${endpointId(sp, ep)}`;
