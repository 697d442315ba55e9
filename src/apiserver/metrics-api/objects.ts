// NodeMetrics and PodMetrics as metrics-server writes them: CPU in nanocores ("n"), memory in
// bytes as a binary quantity, the time the figures were measured and the window they cover,
// the object's labels copied so that label selectors pick them as they pick nodes and pods.

import type { KubeObject } from '../../api/object.ts';
import type { ScrapedSummary } from './scrape.ts';
import { metricsGroup, metricsVersion } from './catalog.ts';

/** the agent samples CPU on its housekeeping period (10 s): rates cover at most that long */
export const metricsWindow = '10s';
const apiVersion = `${metricsGroup}/${metricsVersion}`;

export const cpuQuantity = (nanoCores: number) => `${Math.round(nanoCores)}n`;
/** bytes as resource.NewQuantity(.., BinarySI) prints them: Ki, Mi, ... when exact, else plain */
export function memoryQuantity(bytes: number): string {
  const n = Math.round(bytes);
  let v = n;
  let i = 0;
  const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
  while (v !== 0 && v % 1024 === 0 && i < suffixes.length - 1) { v /= 1024; i++; }
  return `${v}${suffixes[i]}`;
}

type Usage = { cpu?: { time: string; usageNanoCores?: number }; memory?: { time: string; workingSetBytes?: number } };
const complete = (u: Usage) => u.cpu?.usageNanoCores !== undefined && u.memory?.workingSetBytes !== undefined;
const usage = (u: Usage) => ({ cpu: cpuQuantity(u.cpu!.usageNanoCores!), memory: memoryQuantity(u.memory!.workingSetBytes!) });

/** a node's metrics, or undefined while the agent has no CPU rate for it yet */
export function nodeMetrics(node: KubeObject, s: ScrapedSummary, now: string): Record<string, unknown> | undefined {
  if (!complete(s.node)) return undefined;
  return {
    kind: 'NodeMetrics', apiVersion,
    metadata: { name: node.metadata.name, creationTimestamp: now, ...(node.metadata.labels ? { labels: node.metadata.labels } : {}) },
    timestamp: s.node.cpu!.time, window: metricsWindow, usage: usage(s.node),
  };
}

/** a pod's metrics, or undefined when the node reports none for it (or not for every container) */
export function podMetrics(pod: KubeObject, s: ScrapedSummary, now: string): Record<string, unknown> | undefined {
  const stats = s.pods.find(p => p.podRef.uid === pod.metadata.uid) ?? s.pods.find(p => p.podRef.namespace === pod.metadata.namespace && p.podRef.name === pod.metadata.name);
  if (!stats || stats.containers.length === 0 || !stats.containers.every(complete)) return undefined;
  const times = stats.containers.map(c => c.cpu!.time).sort();
  return {
    kind: 'PodMetrics', apiVersion,
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, creationTimestamp: now, ...(pod.metadata.labels ? { labels: pod.metadata.labels } : {}) },
    timestamp: times[times.length - 1], window: metricsWindow,
    containers: stats.containers.map(c => ({ name: c.name, usage: usage(c) })),
  };
}
