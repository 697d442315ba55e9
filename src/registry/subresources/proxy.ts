// The `proxy` subresource of pods, services and nodes (the connect verb, every HTTP method):
// the name in the path may carry a scheme and a port — `name`, `name:port`,
// `scheme:name:port` — read as kube-apiserver's SplitSchemeNamePort reads it; each resource
// then says where that leads (pods-proxy.ts, services-proxy.ts, nodes-proxy.ts). The bytes are
// relayed by the API server (`apiserver/proxy/`).

import { badRequest } from '../../api/status.ts';
import { goQuote } from '../../api/selectors/go-quote.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { ProxyLocation, Subresource, SubresourceCall } from './subresource.ts';
import { podProxyLocation } from './pods-proxy.ts';
import { serviceProxyLocation } from './services-proxy.ts';
import { nodeProxyLocation } from './nodes-proxy.ts';
import { splitSchemeNamePort, type ProxyId } from './proxy-id.ts';

const locations: Record<string, (call: SubresourceCall, id: ProxyId) => Promise<ProxyLocation>> = {
  pods: podProxyLocation,
  services: serviceProxyLocation,
  nodes: nodeProxyLocation,
};

const kinds: Record<string, string> = { pods: 'PodProxyOptions', services: 'ServiceProxyOptions', nodes: 'NodeProxyOptions' };

export const proxySubresource: Subresource = {
  name: 'proxy',
  verbs: ['create', 'delete', 'get', 'patch', 'update'],
  connect: true,
  servedFor: (info: ResourceInfo) => info.group === '' && info.resource in locations && info.subresources.some(s => s.name === 'proxy'),
  kind: info => ({ group: '', version: 'v1', kind: kinds[info.resource]! }),
  produces: ['*/*'],
  getParameters: [{ name: 'path', type: 'string' }],
  proxyLocation(call) {
    return locations[call.info.resource]!(call, parsedId(call));
  },
};

function parsedId(call: SubresourceCall): ProxyId {
  const id = splitSchemeNamePort(call.name);
  if (id) return id;
  // Kubernetes names the resource in the singular here
  const what = { pods: 'pod', services: 'service', nodes: 'node' }[call.info.resource];
  throw badRequest(`invalid ${what} request ${goQuote(call.name)}`);
}
