// Where the node agent of a pod's node answers: the node's address (InternalIP, else ExternalIP,
// else Hostname, as kube-apiserver's preference) and its daemon endpoint port. Logs, exec, attach,
// port-forward and nodes/proxy are all served there.

import { badRequest, notFound, StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { SubresourceCall } from './subresource.ts';

export interface NodeParts {
  status?: { addresses?: Array<{ type: string; address: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

export function nodeAddress(node: NodeParts): string | undefined {
  const addrs = node.status?.addresses ?? [];
  return (addrs.find(a => a.type === 'InternalIP') ?? addrs.find(a => a.type === 'ExternalIP') ?? addrs.find(a => a.type === 'Hostname'))?.address;
}

/** https://<address>:<agent port> of the named node; `purpose` ends the message when it has neither */
export async function agentBaseUrl(call: SubresourceCall, nodeName: string, purpose: string): Promise<string> {
  const node = await call.registry.get(call.lookup('', 'v1', 'nodes')!, undefined, nodeName).catch(err => {
    if (err instanceof StatusError && err.status.code === 404) throw notFound({ group: '', resource: 'nodes' }, nodeName);
    throw err;
  }) as KubeObject & NodeParts;
  const host = nodeAddress(node);
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!host || !port) throw badRequest(`node ${nodeName} has no address or agent port ${purpose}`);
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
