// services/<[scheme:]name[:port]>/proxy: one ready endpoint of the service, from its
// EndpointSlices. A port number is first turned into the service port's name (the name slices
// carry); no such port, or no ready endpoint serving it, is a 503 in kube-apiserver's words.

import { serviceUnavailable } from '../../api/status.ts';
import { goQuote } from '../../api/selectors/go-quote.ts';
import type { KubeObject } from '../../api/object.ts';
import type { ProxyLocation, SubresourceCall } from './subresource.ts';
import type { ProxyId } from './proxy-id.ts';

interface ServiceParts { spec?: { ports?: Array<{ name?: string; port?: number }> } }
interface Slice extends KubeObject {
  addressType?: string;
  ports?: Array<{ name?: string; port?: number }> | null;
  endpoints?: Array<{ addresses?: string[]; conditions?: { ready?: boolean | null } }> | null;
}

/** a ready address and port of `slices` for the port named `portName` ("" for an unnamed port), tried from a random start */
export function pickEndpoint(slices: Slice[], portName: string, random: () => number = Math.random): { host: string; port: number } | undefined {
  const candidates: Array<{ host: string; port: number }> = [];
  for (const s of slices) {
    if (s.addressType === 'FQDN') continue;
    const port = (s.ports ?? []).find(p => (p.name ?? '') === portName)?.port;
    if (port === undefined || port === null) continue;
    for (const e of s.endpoints ?? []) {
      // an endpoint whose readiness is unknown counts as ready, as the API documents
      if (e.conditions?.ready === false) continue;
      const host = e.addresses?.[0];
      if (host) candidates.push({ host, port });
    }
  }
  if (!candidates.length) return undefined;
  return candidates[Math.floor(random() * candidates.length) % candidates.length];
}

export async function serviceProxyLocation(call: SubresourceCall, id: ProxyId): Promise<ProxyLocation> {
  let portName = id.port;
  if (/^[+-]?\d+$/.test(id.port)) {
    const svc = await call.registry.get(call.info, call.namespace, id.name) as KubeObject & ServiceParts;
    const n = Number(id.port);
    const found = (svc.spec?.ports ?? []).find(p => p.port === n);
    if (!found) throw serviceUnavailable(`no service port ${n} found for service ${goQuote(id.name)}`);
    portName = found.name ?? '';
  } else {
    // the service must exist (404 otherwise), whatever its slices say
    await call.registry.get(call.info, call.namespace, id.name);
  }
  const sliceInfo = call.lookup('discovery.k8s.io', 'v1', 'endpointslices')!;
  const list = await call.registry.list(sliceInfo, call.namespace, { filter: s => s.metadata.labels?.['kubernetes.io/service-name'] === id.name });
  const picked = pickEndpoint(list.items as Slice[], portName);
  if (!picked) throw serviceUnavailable(`no endpoints available for service ${goQuote(id.name)}`);
  return { scheme: id.scheme || 'http', host: picked.host, port: String(picked.port), nodeAgent: false };
}
