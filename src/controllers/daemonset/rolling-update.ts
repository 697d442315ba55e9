// A DaemonSet's rolling update as Kubernetes' daemon controller runs it. Without surge, old pods
// are deleted while at most maxUnavailable nodes are without an available pod (the core loop
// then makes the new ones); with maxSurge, new pods start beside available old ones on up to
// maxSurge nodes, and old pods go once their replacements are available. Pure.

import type { CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import { isPodAvailable } from '../pod-readiness.ts';
import { isPodUpdated, templateGeneration } from './daemon-pods.ts';
import { nodeShouldRunDaemonPod, type DaemonSet } from './placement.ts';

/** an int-or-percent of `total`, percentages rounded up as the daemon controller scales them */
function scaled(value: number | string | undefined, total: number): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  if (/^\d+%$/.test(value)) return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  return /^\d+$/.test(value) ? Number(value) : 0;
}

export function surgeCount(ds: DaemonSet, desired: number): number {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  return ds.spec?.updateStrategy?.type === 'OnDelete' || !ru ? 0 : scaled(ru.maxSurge, desired);
}

export function unavailableCount(ds: DaemonSet, desired: number): number {
  const st = ds.spec?.updateStrategy;
  if (st?.type === 'OnDelete') return 0;
  return scaled(st?.rollingUpdate?.maxUnavailable ?? 1, desired);
}

/** a node's one new and one old pod; not ok when it holds more of either (the core loop prunes those first) */
export function updatedPodsOnNode(ds: DaemonSet, pods: CoreV1Pod[], hash: string): { newPod?: CoreV1Pod; oldPod?: CoreV1Pod; ok: boolean } {
  let newPod: CoreV1Pod | undefined;
  let oldPod: CoreV1Pod | undefined;
  const generation = templateGeneration(ds);
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, generation)) { if (newPod) return { ok: false }; newPod = p; } else { if (oldPod) return { ok: false }; oldPod = p; }
  }
  return { newPod, oldPod, ok: true };
}

export interface UpdatePlan { podsToDelete: CoreV1Pod[]; nodesNeedingPods: string[] }

export function planRollingUpdate(ds: DaemonSet, nodes: CoreV1Node[], podsByNode: Map<string, CoreV1Pod[]>, hash: string, now: number): UpdatePlan {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const available = (p: CoreV1Pod) => isPodAvailable(p, minReady, now);
  const nodeByName = new Map(nodes.map(n => [n.metadata?.name ?? '', n]));
  const desired = nodes.filter(n => nodeShouldRunDaemonPod(n, ds).shouldRun).length;
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;

  if (maxSurge === 0) {
    let unavailable = 0;
    const replace: CoreV1Pod[] = [];
    const candidates: CoreV1Pod[] = [];
    for (const pods of podsByNode.values()) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
      if (!ok || (!oldPod && !newPod) || (oldPod && newPod)) { unavailable++; continue; }
      if (newPod) { if (!available(newPod)) unavailable++; continue; }
      if (!available(oldPod!)) { replace.push(oldPod!); continue; }
      if (unavailable >= maxUnavailable) continue;
      candidates.push(oldPod!);
    }
    const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
    return { podsToDelete: [...replace, ...candidates.slice(0, room)], nodesNeedingPods: [] };
  }

  const oldToDelete: CoreV1Pod[] = [];
  const shouldNotRun: CoreV1Pod[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let surge = 0;
  let numAvailable = 0;
  for (const [name, pods] of podsByNode) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(ds, pods, hash);
    if (!ok) { surge++; continue; }
    if (oldPod ? available(oldPod) : newPod && available(newPod)) numAvailable++;
    const node = nodeByName.get(name);
    if (!node || !nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (oldPod) shouldNotRun.push(oldPod);
      if (newPod) shouldNotRun.push(newPod);
      continue;
    }
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) allowed.push(name);
      else if (surge < maxSurge) candidates.push(name);
      continue;
    }
    if (!available(newPod)) { surge++; continue; }
    oldToDelete.push(oldPod);
  }
  // pods on nodes that should not run them go only as pods elsewhere become available
  const deletable = Math.min(Math.max(0, numAvailable - desired), shouldNotRun.length);
  oldToDelete.push(...shouldNotRun.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - surge), candidates.length);
  return { podsToDelete: oldToDelete, nodesNeedingPods: [...allowed, ...candidates.slice(0, room)] };
}
