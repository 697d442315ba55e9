// Endpoint routing (kube-apiserver's --enable-aggregator-routing): a request for an APIService
// goes straight to one of its Service's ready endpoints, so no service proxy is needed. The
// Service's port picks the endpoint port by name, as the endpoints controller names them.

import type { ServiceRef } from './availability.ts';

interface ServiceParts { spec?: { ports?: Array<{ name?: string; port?: number }> } }
interface EndpointsParts { subsets?: Array<{ addresses?: Array<{ ip?: string }>; ports?: Array<{ name?: string; port?: number }> }> }
interface SliceParts {
  addressType?: string;
  endpoints?: Array<{ addresses?: string[]; conditions?: { ready?: boolean | null } }>;
  ports?: Array<{ name?: string | null; port?: number | null }>;
}

export interface Endpoint { host: string; port: number }

/**
 * Every ready address serving the Service's port: from its EndpointSlices when it has any,
 * otherwise from its Endpoints. Empty when the port is not the Service's or nothing is ready.
 */
export function readyEndpoints(ref: ServiceRef, serviceObj: object, endpointsObj: object | undefined, sliceObjs: object[]): Endpoint[] {
  const service = serviceObj as ServiceParts;
  const endpoints = endpointsObj as EndpointsParts | undefined;
  const slices = sliceObjs as SliceParts[];
  const svcPort = (service.spec?.ports ?? []).find(p => p.port === ref.port);
  if (!svcPort) return [];
  const name = svcPort.name ?? '';
  const out: Endpoint[] = [];
  if (slices.length) {
    for (const s of slices) {
      const port = (s.ports ?? []).find(p => (p.name ?? '') === name)?.port;
      if (!port || (s.addressType !== 'IPv4' && s.addressType !== 'IPv6')) continue;
      // a ready condition left unset counts as ready, as the EndpointSlice API says
      for (const e of s.endpoints ?? []) if (e.conditions?.ready !== false) for (const a of e.addresses ?? []) out.push({ host: a, port });
    }
    return out;
  }
  for (const subset of endpoints?.subsets ?? []) {
    const port = (subset.ports ?? []).find(p => (p.name ?? '') === name)?.port;
    if (!port) continue;
    for (const a of subset.addresses ?? []) if (a.ip) out.push({ host: a.ip, port });
  }
  return out;
}

/** one of them, at random, as kube-apiserver spreads requests */
export function pickEndpoint(candidates: Endpoint[], random: () => number = Math.random): Endpoint | undefined {
  return candidates.length ? candidates[Math.floor(random() * candidates.length)] : undefined;
}

export function endpointUrl(e: Endpoint, path: string): string {
  return `https://${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}${path}`;
}
