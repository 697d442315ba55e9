// nodes/<[scheme:]name[:port]>/proxy: the node agent's HTTPS endpoint (its address and daemon
// endpoint port, as pods/log finds them), reached with the API server's client certificate —
// /healthz, /stats/summary, /metrics/resource, /pods. Another port of the node is dialled plainly,
// and only at an address a proxy may dial, as kube-apiserver's node ResourceLocation decides.

import { badRequest, notFound, StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { ProxyLocation, SubresourceCall } from './subresource.ts';
import { nodeAddress, type NodeParts } from './node-agent.ts';
import { isProxyableIP, type ProxyId } from './proxy-id.ts';

/** the kubelet's port when a node publishes none */
const defaultAgentPort = 10250;

export async function nodeProxyLocation(call: SubresourceCall, id: ProxyId): Promise<ProxyLocation> {
  const node = await call.registry.get(call.info, undefined, id.name).catch(err => {
    if (err instanceof StatusError && err.status.code === 404) throw notFound({ group: '', resource: 'nodes' }, id.name);
    throw err;
  }) as KubeObject & NodeParts;
  const host = nodeAddress(node);
  if (!host) throw badRequest(`no preferred addresses found; known addresses: []`);
  const agentPort = String(node.status?.daemonEndpoints?.kubeletEndpoint?.Port || defaultAgentPort);
  if (id.port === '' || id.port === agentPort) return { scheme: 'https', host, port: agentPort, nodeAgent: true };
  if (!isProxyableIP(host)) throw badRequest('address not allowed');
  return { scheme: id.scheme || 'http', host, port: id.port, nodeAgent: false };
}
