// Which pods a replica controller deletes first when it scales down, in Kubernetes' order
// (ActivePodsWithRanks with LogarithmicScaleDown and PodDeletionCost, both on by default):
// unscheduled before scheduled; Pending, then Unknown, then Running; not ready before ready;
// lower controller.kubernetes.io/pod-deletion-cost first; pods sharing a node with more of
// their relatives first; then the more recently ready, the more restarted, the younger,
// comparing times on a log2 scale so that pods of about the same age go in uid order.

import type { CoreV1Pod } from '../../schema/generated/types.ts';
import { isPodActive, isPodReady, readySinceMs } from '../pod-readiness.ts';

export const deletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

const phaseOrder: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function deletionCost(pod: CoreV1Pod): number {
  const v = pod.metadata?.annotations?.[deletionCostAnnotation];
  if (v === undefined) return 0;
  const n = Number(v);
  // an invalid cost counts as none, as Kubernetes reads it
  return /^[+-]?\d+$/.test(v) && Number.isSafeInteger(n) && n >= -2147483648 && n <= 2147483647 ? n : 0;
}

function maxRestarts(pod: CoreV1Pod): number {
  let max = 0;
  for (const s of pod.status?.containerStatuses ?? []) max = Math.max(max, s.restartCount ?? 0);
  return max;
}

/** int(log2(nanoseconds since t)), -1 for none, as Kubernetes buckets ages */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/** a before b when a is "after or zero": the more recent (or unknown) time goes first */
function afterOrZero(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  return a > b;
}

function uidLess(a: CoreV1Pod, b: CoreV1Pod): boolean {
  return (a.metadata?.uid ?? '') < (b.metadata?.uid ?? '');
}

/** compares two times the way LogarithmicScaleDown does; undefined when they tie */
function timeOrder(a: CoreV1Pod, ta: number | undefined, b: CoreV1Pod, tb: number | undefined, now: number): boolean | undefined {
  if (ta === tb) return undefined;
  if (ta === undefined || tb === undefined) return afterOrZero(ta, tb);
  const diff = logRank(ta, now) - logRank(tb, now);
  if (diff === 0) return uidLess(a, b);
  return diff < 0;
}

interface Ranked { pod: CoreV1Pod; rank: number }

function less(x: Ranked, y: Ranked, now: number): boolean {
  const a = x.pod, b = y.pod;
  const na = a.spec?.nodeName ?? '', nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  const pa = phaseOrder[a.status?.phase ?? ''] ?? 0, pb = phaseOrder[b.status?.phase ?? ''] ?? 0;
  if (pa !== pb) return pa < pb;
  const ra = isPodReady(a), rb = isPodReady(b);
  if (ra !== rb) return !ra;
  const ca = deletionCost(a), cb = deletionCost(b);
  if (ca !== cb) return ca < cb;
  if (x.rank !== y.rank) return x.rank > y.rank;
  if (ra && rb) {
    const o = timeOrder(a, readySinceMs(a), b, readySinceMs(b), now);
    if (o !== undefined) return o;
  }
  const sa = maxRestarts(a), sb = maxRestarts(b);
  if (sa !== sb) return sa > sb;
  const ta = a.metadata?.creationTimestamp ? Date.parse(a.metadata.creationTimestamp) : undefined;
  const tb = b.metadata?.creationTimestamp ? Date.parse(b.metadata.creationTimestamp) : undefined;
  return timeOrder(a, ta, b, tb, now) ?? false;
}

/**
 * The n pods to delete out of `pods`. `related` are the pods of the owner's siblings too (the
 * other ReplicaSets of one Deployment), whose count per node makes crowded nodes go first.
 */
export function podsToDelete(pods: CoreV1Pod[], related: CoreV1Pod[], n: number, now: number): CoreV1Pod[] {
  if (n >= pods.length) return pods.slice();
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(p.spec?.nodeName ?? '', (onNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  const ranked = pods.map(pod => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((x, y) => (less(x, y, now) ? -1 : less(y, x, now) ? 1 : 0));
  return ranked.slice(0, n).map(r => r.pod);
}
