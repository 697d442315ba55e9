// What pods/exec, pods/attach and pods/portforward share: the query read as kube-apiserver
// decodes PodExecOptions and friends, the container chosen and checked as its streamLocation
// does, and the URL of the agent endpoint on the pod's node (the kubelet's /exec, /attach and
// /portForward paths, with the kubelet's query names) where the connection is relayed.

import { badRequest } from '../../api/status.ts';
import { queryBool as readQueryBool } from '../../api/query-bool.ts';
import type { KubeObject } from '../../api/object.ts';
import type { QueryParameter, SubresourceCall } from './subresource.ts';
import { pickContainer } from './log.ts';
import { agentBaseUrl } from './node-agent.ts';

interface PodParts { spec?: { nodeName?: string } }

/** a query boolean as Kubernetes' parameter codec reads one; absent is false */
export function queryBool(q: URLSearchParams, name: string): boolean {
  return readQueryBool(q, name) ?? false;
}

export const commandParameters: QueryParameter[] = [
  { name: 'container', type: 'string' }, { name: 'stderr', type: 'boolean' }, { name: 'stdin', type: 'boolean' },
  { name: 'stdout', type: 'boolean' }, { name: 'tty', type: 'boolean' },
];

/** stdin/stdout/stderr/tty in the kubelet's names (input/output/error/tty, as "1") */
export function streamQuery(q: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [api, kubelet] of [['stdin', 'input'], ['stdout', 'output'], ['stderr', 'error'], ['tty', 'tty']] as const) {
    if (queryBool(q, api)) out.set(kubelet, '1');
  }
  return out;
}

async function podOf(call: SubresourceCall): Promise<KubeObject & PodParts> {
  return await call.registry.get(call.info, call.namespace, call.name) as KubeObject & PodParts;
}

/** https://<node address>:<agent port>, where the pod runs */
async function agentBase(call: SubresourceCall, pod: KubeObject & PodParts): Promise<string> {
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  return agentBaseUrl(call, nodeName, 'to connect to');
}

const seg = encodeURIComponent;

/** /exec or /attach on the agent, for the container the query names (or the only one) */
export async function containerStreamUrl(call: SubresourceCall, path: 'exec' | 'attach', query: URLSearchParams): Promise<string> {
  const pod = await podOf(call);
  const container = pickContainer(pod, call.query.get('container') ?? undefined);
  const base = await agentBase(call, pod);
  return `${base}/${path}/${seg(pod.metadata.namespace!)}/${seg(pod.metadata.name!)}/${seg(container)}${query.size ? `?${query}` : ''}`;
}

/** /portForward on the agent, the ports as the kubelet's `port` parameters */
export async function portForwardUrl(call: SubresourceCall, ports: string[]): Promise<string> {
  const pod = await podOf(call);
  const base = await agentBase(call, pod);
  const query = new URLSearchParams();
  for (const p of ports) query.append('port', p);
  return `${base}/portForward/${seg(pod.metadata.namespace!)}/${seg(pod.metadata.name!)}${query.size ? `?${query}` : ''}`;
}
