// pods/<name[:port]>/proxy: the pod's own IP, at the port asked for or, when none is, the
// first port a container declares (none: the scheme's default), as kube-apiserver's pod
// ResourceLocation picks it. A pod without an IP, or with one a proxy may not dial (loopback,
// link-local), is refused with "address not allowed".

import { badRequest } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { ProxyLocation, SubresourceCall } from './subresource.ts';
import { isProxyableIP, type ProxyId } from './proxy-id.ts';

interface PodParts {
  spec?: { containers?: Array<{ ports?: Array<{ containerPort?: number }> }> };
  status?: { podIP?: string; podIPs?: Array<{ ip?: string }> };
}

export async function podProxyLocation(call: SubresourceCall, id: ProxyId): Promise<ProxyLocation> {
  const pod = await call.registry.get(call.info, call.namespace, id.name) as KubeObject & PodParts;
  let port = id.port;
  if (!port) {
    const declared = (pod.spec?.containers ?? []).find(c => (c.ports ?? []).length > 0)?.ports?.[0]?.containerPort;
    if (declared !== undefined) port = String(declared);
  }
  const ip = pod.status?.podIP || pod.status?.podIPs?.[0]?.ip || '';
  if (!isProxyableIP(ip)) throw badRequest('address not allowed');
  return { scheme: id.scheme || 'http', host: ip, port: port || undefined, nodeAgent: false };
}
