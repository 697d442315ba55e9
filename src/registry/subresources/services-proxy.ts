// services/<[scheme:]name[:port]>/proxy: one ready endpoint of the service, from its
// EndpointSlices. A port number is first turned into the service port's name (the name slices
// carry). As kube-apiserver, only an address that belongs to a pod is dialled: the endpoint must
// name a pod of the service's namespace (targetRef) that holds that IP, so that writing an
// endpoint cannot point the API server at an arbitrary address. Refusals are 503s in its words.

import { serviceUnavailable, StatusError } from '../../api/status.ts';
import { goQuote } from '../../api/selectors/go-quote.ts';
import type { KubeObject } from '../../api/object.ts';
import type { ProxyLocation, SubresourceCall } from './subresource.ts';
import type { ProxyId } from './proxy-id.ts';

interface ServiceParts { spec?: { ports?: Array<{ name?: string; port?: number }> } }
interface TargetRef { kind?: string; namespace?: string; name?: string }
interface SliceEndpoint { addresses?: string[]; conditions?: { ready?: boolean | null }; targetRef?: TargetRef | null }
interface Slice extends KubeObject {
  addressType?: string;
  ports?: Array<{ name?: string; port?: number }> | null;
  endpoints?: SliceEndpoint[] | null;
}
interface PodIPs { status?: { podIP?: string; podIPs?: Array<{ ip?: string }> } }

export interface Candidate { host: string; port: number; targetRef?: TargetRef | null }

/** the ready addresses of `slices` serving the port named `portName` ("" for an unnamed port), from a random start */
export function candidates(slices: Slice[], portName: string, random: () => number = Math.random): Candidate[] {
  const found: Candidate[] = [];
  for (const s of slices) {
    if (s.addressType === 'FQDN') continue;
    const port = (s.ports ?? []).find(p => (p.name ?? '') === portName)?.port;
    if (port === undefined || port === null) continue;
    for (const e of s.endpoints ?? []) {
      // an endpoint whose readiness is unknown counts as ready, as the API documents
      if (e.conditions?.ready === false) continue;
      const host = e.addresses?.[0];
      if (host) found.push({ host, port, targetRef: e.targetRef });
    }
  }
  const start = found.length ? Math.floor(random() * found.length) % found.length : 0;
  return [...found.slice(start), ...found.slice(0, start)];
}

/** whether the candidate's address is the IP of the pod it names, in `namespace` */
async function ownedByPod(call: SubresourceCall, namespace: string | undefined, c: Candidate): Promise<boolean> {
  const ref = c.targetRef;
  if (!ref || ref.kind !== 'Pod' || !ref.name || ref.namespace !== namespace) return false;
  const pods = call.lookup('', 'v1', 'pods')!;
  const pod = await call.registry.get(pods, namespace, ref.name).catch(err => {
    if (err instanceof StatusError && err.status.code === 404) return undefined;
    throw err;
  }) as (KubeObject & PodIPs) | undefined;
  if (!pod) return false;
  const ips = pod.status?.podIPs?.map(p => p.ip) ?? (pod.status?.podIP ? [pod.status.podIP] : []);
  return ips.includes(c.host);
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
  const slices = (await call.registry.list(sliceInfo, call.namespace, { filter: s => s.metadata.labels?.['kubernetes.io/service-name'] === id.name })).items as Slice[];
  if (!slices.some(s => (s.endpoints ?? []).length > 0)) throw serviceUnavailable(`no endpoints available for service ${goQuote(id.name)}`);
  for (const c of candidates(slices, portName)) {
    if (await ownedByPod(call, call.namespace, c)) return { scheme: id.scheme || 'http', host: c.host, port: String(c.port), nodeAgent: false };
  }
  // kube-apiserver names the whole id here ("https:web:8443"), the service alone above
  throw serviceUnavailable(`no endpoints available for service ${goQuote(call.name)}`);
}
