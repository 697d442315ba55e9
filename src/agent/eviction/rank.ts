// Which pod goes first, as the kubelet ranks them (pure):
//  - memory: pods using more than they requested, then lower priority, then most use above request;
//  - disk (bytes or inodes): the same with local ephemeral storage (writable layers, logs, local volumes);
//  - pids: lower priority, then most processes.
// Pods without figures come first, as the kubelet puts them. The eviction message names the
// resource, the threshold and what each container used beyond its request.

import { canonicalQuantity, parseQuantity } from '../../api/quantity.ts';
import type { Pod } from '../pods/types.ts';
import { formatBytes } from '../node-status/resources.ts';
import type { PodStatsJson } from '../stats/summary-types.ts';
import { signalResource, type Observations } from './signals.ts';
import { thresholdQuantity, type Signal, type Threshold } from './thresholds.ts';

type Stats = (pod: Pod) => PodStatsJson | undefined;
type Cmp = (a: Pod, b: Pod) => number;

/** the pod's request of a resource: its containers' sum, or its largest init container's if more */
export function podRequest(pod: Pod, resource: string): number {
  const of = (c: { resources?: { requests?: Record<string, unknown> | null } | null }) => parseQuantity(c.resources?.requests?.[resource]) ?? 0;
  const sum = pod.spec.containers.reduce((n, c) => n + of(c), 0);
  return Math.max(sum, ...(pod.spec.initContainers ?? []).map(of));
}

const priority = (p: Pod) => p.spec.priority ?? 0;

function usageOf(signal: Signal, s: PodStatsJson | undefined): number | undefined {
  if (!s) return undefined;
  switch (signalResource[signal]) {
    case 'memory': return s.memory?.workingSetBytes;
    case 'ephemeral-storage': return s['ephemeral-storage']?.usedBytes;
    case 'inodes': return s['ephemeral-storage']?.inodesUsed ?? [...s.containers.map(c => (c.rootfs?.inodesUsed ?? 0) + (c.logs?.inodesUsed ?? 0)), ...(s.volume ?? []).map(v => v.inodesUsed ?? 0)].reduce((a, b) => a + b, 0);
    case 'pids': return s.process_stats?.process_count ?? 0;
  }
}

function ordered(...cmps: Cmp[]): Cmp {
  return (a, b) => { for (const c of cmps) { const r = c(a, b); if (r) return r; } return 0; };
}

/** the pods ranked for eviction under the given signal, first to go first */
export function rankPods(pods: Pod[], signal: Signal, stats: Stats): Pod[] {
  const resource = signalResource[signal];
  const request = (p: Pod) => (resource === 'memory' || resource === 'ephemeral-storage' ? podRequest(p, resource) : 0);
  const usage = (p: Pod) => usageOf(signal, stats(p));
  // pods without figures first, then the comparison
  const known = (f: Cmp): Cmp => (a, b) => {
    const ua = usage(a), ub = usage(b);
    if (ua === undefined || ub === undefined) return ua === ub ? 0 : ua === undefined ? -1 : 1;
    return f(a, b);
  };
  const exceeds = known((a, b) => {
    const ea = usage(a)! > request(a), eb = usage(b)! > request(b);
    return ea === eb ? 0 : ea ? -1 : 1;
  });
  const byPriority: Cmp = (a, b) => priority(a) - priority(b);
  const aboveRequest = known((a, b) => (usage(b)! - request(b)) - (usage(a)! - request(a)));
  const cmp = resource === 'pids' ? ordered(byPriority, known((a, b) => usage(b)! - usage(a)!)) : ordered(exceeds, byPriority, aboveRequest);
  return [...pods].sort(cmp);
}

/** bytes as resource.NewQuantity(.., BinarySI) prints them */
const bytes = (n: number) => formatBytes(Math.round(n));

/** the message an evicted pod's status and event carry, in the kubelet's words */
export function evictionMessage(pod: Pod, signal: Signal, thresholds: Threshold[], obs: Observations, stats: PodStatsJson | undefined): string {
  const resource = signalResource[signal];
  let msg = `The node was low on resource: ${resource}. `;
  const t = thresholds.find(x => signalResource[x.signal] === resource && obs[x.signal]);
  if (t) {
    const o = obs[t.signal]!;
    msg += `Threshold quantity: ${bytes(thresholdQuantity(t.value, o.capacity))}, available: ${resource === 'memory' || resource === 'ephemeral-storage' ? formatKi(o.available) : o.available}. `;
  }
  if (!stats || (resource !== 'memory' && resource !== 'ephemeral-storage')) return msg;
  const containers = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
  for (const cs of stats.containers) {
    const c = containers.find(x => x.name === cs.name);
    if (!c) continue;
    const used = resource === 'memory' ? cs.memory?.workingSetBytes : cs.rootfs?.usedBytes !== undefined && cs.logs?.usedBytes !== undefined ? cs.rootfs.usedBytes + cs.logs.usedBytes : undefined;
    const req = parseQuantity(c.resources?.requests?.[resource]) ?? 0;
    if (used !== undefined && used > req) msg += `Container ${c.name} was using ${bytes(used)}, request is ${req ? canonicalQuantity(c.resources!.requests![resource]) : '0'}, has larger consumption of ${resource}. `;
  }
  return msg;
}

/** available amounts as the kubelet prints them (its observations are kept in Ki) */
function formatKi(n: number): string {
  return bytes(Math.floor(n / 1024) * 1024);
}
