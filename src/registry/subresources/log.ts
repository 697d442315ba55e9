// pods/<name>/log: where a container's log is read — the node agent that runs the pod (its
// /containerLogs endpoint, at the node's address and daemon endpoint port). The options are
// decoded and checked here as kube-apiserver checks them (log-options.ts); the API server
// streams the bytes through, so `kubectl logs -f` follows them.

import { badRequest } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { QueryParameter, Subresource, SubresourceCall, SubresourceResult } from './subresource.ts';
import { agentBaseUrl } from './node-agent.ts';
import { agentLogQuery, decodePodLogOptions, validatePodLogOptions } from './log-options.ts';

interface Named { name: string }
interface PodParts {
  spec?: { nodeName?: string; containers?: Named[]; initContainers?: Named[]; ephemeralContainers?: Named[] };
}

const parameters: QueryParameter[] = [
  { name: 'container', type: 'string' }, { name: 'follow', type: 'boolean' }, { name: 'insecureSkipTLSVerifyBackend', type: 'boolean' },
  { name: 'limitBytes', type: 'integer' }, { name: 'previous', type: 'boolean' }, { name: 'sinceSeconds', type: 'integer' },
  { name: 'stream', type: 'string' }, { name: 'tailLines', type: 'integer' }, { name: 'timestamps', type: 'boolean' },
];

/** the container asked for, or the only one; every kind of container counts, in the order Kubernetes visits them */
export function pickContainer(pod: KubeObject & PodParts, asked: string | undefined): string {
  const name = pod.metadata.name;
  const names = (list: Named[] | undefined) => (list ?? []).map(c => c.name);
  const containers = names(pod.spec?.containers);
  const all = [...names(pod.spec?.initContainers), ...containers, ...names(pod.spec?.ephemeralContainers)];
  if (!asked) {
    if (containers.length === 1) return containers[0]!;
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
  }
  if (!all.includes(asked)) throw badRequest(`container ${asked} is not valid for pod ${name}`);
  return asked;
}

async function logLocation(call: SubresourceCall): Promise<SubresourceResult> {
  const opts = decodePodLogOptions(call.query);
  validatePodLogOptions(opts, call.name);
  const pod = await call.registry.get(call.info, call.namespace, call.name) as KubeObject & PodParts;
  const container = pickContainer(pod, opts.container);
  const nodeName = pod.spec?.nodeName;
  // a pod not yet on a node has no log: kube-apiserver answers 204 No Content
  if (!nodeName) return { type: 'stream', url: '', contentType: 'text/plain' };
  const base = await agentBaseUrl(call, nodeName, 'to fetch logs from');
  // (insecureSkipTLSVerifyBackend is accepted: the agent's serving certificate is not verified
  // in any case, as kube-apiserver without --kubelet-certificate-authority does not verify it)
  const query = agentLogQuery(opts);
  const path = `/containerLogs/${encodeURIComponent(pod.metadata.namespace!)}/${encodeURIComponent(pod.metadata.name!)}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
  return { type: 'stream', url: `${base}${path}`, contentType: 'text/plain' };
}

export const logSubresource: Subresource = {
  name: 'log',
  verbs: ['get'],
  connect: false,
  kind: () => ({ group: '', version: 'v1', kind: 'Pod' }),
  produces: ['text/plain', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
  getParameters: parameters,
  get: logLocation,
};
