// A node as the scheduler weighs it: the node object, what the pods placed on it (or about to
// be) request, how many there are, and which host ports they hold.

import { podRequests, type Resources } from './requests.ts';
import type { CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';

type HostPort = { protocol: string; hostIP: string; port: number };

/** what the pods on one node hold together */
export interface NodeUsage {
  requested: Resources;
  /** requests with the non-zero defaults, for scoring */
  requestedNonZero: Resources;
  pods: number;
  ports: HostPort[];
}

export interface NodeInfo extends NodeUsage { node: CoreV1Node }

const portsOf = new WeakMap<CoreV1Pod, HostPort[]>();

/** the host ports a pod holds, found once per pod object (callers must not change the array) */
export function hostPorts(pod: CoreV1Pod): HostPort[] {
  let ports = portsOf.get(pod);
  if (!ports) portsOf.set(pod, ports = findHostPorts(pod));
  return ports;
}

function findHostPorts(pod: CoreV1Pod): HostPort[] {
  const out = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const p of c.ports ?? []) if (p.hostPort) out.push({ protocol: p.protocol ?? 'TCP', hostIP: p.hostIP || '0.0.0.0', port: p.hostPort });
  }
  return out;
}

export function emptyUsage(): NodeUsage {
  return { requested: new Map(), requestedNonZero: new Map(), pods: 0, ports: [] };
}

/** the node with its usage as it stands (the maps are the usage's own, not copies) */
export function nodeInfo(node: CoreV1Node, usage: NodeUsage = emptyUsage()): NodeInfo {
  return { node, ...usage };
}

export function addPod(usage: NodeUsage, pod: CoreV1Pod): void {
  for (const [k, v] of podRequests(pod)) usage.requested.set(k, (usage.requested.get(k) ?? 0) + v);
  for (const [k, v] of podRequests(pod, true)) usage.requestedNonZero.set(k, (usage.requestedNonZero.get(k) ?? 0) + v);
  usage.pods++;
  usage.ports.push(...hostPorts(pod));
}

function subtract(from: Resources, what: Resources): void {
  for (const [k, v] of what) {
    const left = (from.get(k) ?? 0) - v;
    if (left === 0) from.delete(k); else from.set(k, left);
  }
}

export function removePod(usage: NodeUsage, pod: CoreV1Pod): void {
  subtract(usage.requested, podRequests(pod));
  subtract(usage.requestedNonZero, podRequests(pod, true));
  usage.pods--;
  for (const p of hostPorts(pod)) {
    const i = usage.ports.findIndex(q => q.protocol === p.protocol && q.hostIP === p.hostIP && q.port === p.port);
    if (i >= 0) usage.ports.splice(i, 1);
  }
}
