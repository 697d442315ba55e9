// A node as the scheduler weighs it: the node object, what the pods placed on it (or about to
// be) request, how many there are, and which host ports they hold.

import { podRequests, type Resources } from './requests.ts';

type Obj = Record<string, any>;

export interface NodeInfo {
  node: Obj;
  requested: Resources;
  /** requests with the non-zero defaults, for scoring */
  requestedNonZero: Resources;
  pods: number;
  ports: Array<{ protocol: string; hostIP: string; port: number }>;
}

export function hostPorts(pod: Obj): Array<{ protocol: string; hostIP: string; port: number }> {
  const out = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) if (p.hostPort) out.push({ protocol: p.protocol ?? 'TCP', hostIP: p.hostIP || '0.0.0.0', port: p.hostPort });
  }
  return out;
}

export function emptyNodeInfo(node: Obj): NodeInfo {
  return { node, requested: new Map(), requestedNonZero: new Map(), pods: 0, ports: [] };
}

export function addPod(info: NodeInfo, pod: Obj): void {
  for (const [k, v] of podRequests(pod)) info.requested.set(k, (info.requested.get(k) ?? 0) + v);
  for (const [k, v] of podRequests(pod, true)) info.requestedNonZero.set(k, (info.requestedNonZero.get(k) ?? 0) + v);
  info.pods++;
  info.ports.push(...hostPorts(pod));
}
