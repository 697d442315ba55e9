// pods/<name>/log: where a container's log is read — the node agent that runs the pod (its
// /containerLogs endpoint, at the node's address and daemon endpoint port). The request is
// checked here, with Kubernetes' wording; the API server streams the bytes through, so
// `kubectl logs -f` follows them.

import { badRequest, notFound, StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { QueryParameter, Subresource, SubresourceCall, SubresourceResult } from './subresource.ts';

interface Named { name: string }
interface PodParts {
  spec?: { nodeName?: string; containers?: Named[]; initContainers?: Named[]; ephemeralContainers?: Named[] };
}
export interface NodeParts {
  status?: { addresses?: Array<{ type: string; address: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

const passThrough = ['follow', 'previous', 'timestamps', 'tailLines', 'limitBytes', 'sinceSeconds', 'sinceTime'];

const parameters: QueryParameter[] = [
  { name: 'container', type: 'string' }, { name: 'follow', type: 'boolean' }, { name: 'insecureSkipTLSVerifyBackend', type: 'boolean' },
  { name: 'limitBytes', type: 'integer' }, { name: 'previous', type: 'boolean' }, { name: 'sinceSeconds', type: 'integer' },
  { name: 'stream', type: 'string' }, { name: 'tailLines', type: 'integer' }, { name: 'timestamps', type: 'boolean' },
];

function checkOptions(q: URLSearchParams): void {
  for (const [name, min] of [['tailLines', 0], ['limitBytes', 1], ['sinceSeconds', 1]] as const) {
    const v = q.get(name);
    if (v === null) continue;
    const n = Number(v);
    if (!Number.isInteger(n)) throw badRequest(`${name}: Invalid value: "${v}": must be an integer`);
    if (n < min) throw badRequest(`${name}: Invalid value: ${n}: must be ${min === 0 ? 'greater than or equal to 0' : 'greater than 0'}`);
  }
  if (q.get('sinceSeconds') && q.get('sinceTime')) throw badRequest('at most one of `sinceTime` or `sinceSeconds` may be specified');
}

export function pickContainer(pod: KubeObject & PodParts, asked: string | null): string {
  const name = pod.metadata.name;
  const names = (list: Named[] | undefined) => (list ?? []).map(c => c.name);
  const containers = names(pod.spec?.containers);
  const inits = names(pod.spec?.initContainers);
  const ephemeral = names(pod.spec?.ephemeralContainers);
  if (!asked) {
    if (containers.length === 1) return containers[0]!;
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`);
  }
  if (![...containers, ...inits, ...ephemeral].includes(asked)) throw badRequest(`container ${asked} is not valid for pod ${name}`);
  return asked;
}

export function nodeAddress(node: NodeParts): string | undefined {
  const addrs = node.status?.addresses ?? [];
  return (addrs.find(a => a.type === 'InternalIP') ?? addrs.find(a => a.type === 'ExternalIP') ?? addrs.find(a => a.type === 'Hostname'))?.address;
}

async function logLocation(call: SubresourceCall): Promise<SubresourceResult> {
  const q = call.query;
  checkOptions(q);
  const pod = await call.registry.get(call.info, call.namespace, call.name) as KubeObject & PodParts;
  const container = pickContainer(pod, q.get('container'));
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const node = await call.registry.get(call.lookup('', 'v1', 'nodes')!, undefined, nodeName).catch(err => {
    if (err instanceof StatusError && err.status.code === 404) throw notFound({ group: '', resource: 'nodes' }, nodeName);
    throw err;
  }) as KubeObject & NodeParts;
  const host = nodeAddress(node);
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!host || !port) throw badRequest(`node ${nodeName} has no address or agent port to fetch logs from`);
  const query = new URLSearchParams();
  for (const k of passThrough) { const v = q.get(k); if (v !== null) query.set(k, v); }
  const path = `/containerLogs/${encodeURIComponent(pod.metadata.namespace!)}/${encodeURIComponent(pod.metadata.name!)}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
  return { type: 'stream', url: `https://${host.includes(':') ? `[${host}]` : host}:${port}${path}`, contentType: 'text/plain' };
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
