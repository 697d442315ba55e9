// The daemon controller's core loop, as a decision: for each node, a pod where one should run
// and none does; failed and finished pods, extra pods, and pods on nodes that should not run
// them deleted. With maxSurge a node may hold an old and a new pod for a while: the old one goes
// once the new one is available (or at once if the old one is not ready). Pure.

import type { CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import { revisionHashLabel } from '../history/revisions.ts';
import { isPodAvailable, isPodReady } from '../pod-readiness.ts';
import { byAgeAndPhase } from './daemon-pods.ts';
import { nodeShouldRunDaemonPod, type DaemonSet } from './placement.ts';
import { surgeCount } from './rolling-update.ts';

export interface ManagePlan {
  nodesNeedingPods: string[];
  podsToDelete: CoreV1Pod[];
  /** failed pods found (each gets a FailedDaemonPod event) */
  failed: Array<{ pod: CoreV1Pod; node: string }>;
}

export function allowsSurge(ds: DaemonSet): boolean {
  return ds.spec?.updateStrategy?.type !== 'OnDelete' && surgeCount(ds, 1) > 0;
}

export function planManage(ds: DaemonSet, nodes: CoreV1Node[], podsByNode: Map<string, CoreV1Pod[]>, hash: string, now: number): ManagePlan {
  const plan: ManagePlan = { nodesNeedingPods: [], podsToDelete: [], failed: [] };
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const known = new Set<string>();
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    known.add(name);
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = podsByNode.get(name) ?? [];
    if (shouldRun && pods.length === 0) { plan.nodesNeedingPods.push(name); continue; }
    if (!shouldContinueRunning) {
      plan.podsToDelete.push(...pods.filter(p => !p.metadata?.deletionTimestamp));
      continue;
    }
    const running: CoreV1Pod[] = [];
    for (const p of pods) {
      if (p.metadata?.deletionTimestamp) continue;
      if (p.status?.phase === 'Failed') { plan.failed.push({ pod: p, node: name }); plan.podsToDelete.push(p); }
      else if (p.status?.phase === 'Succeeded') plan.podsToDelete.push(p);
      else running.push(p);
    }
    if (running.length <= 1) continue;
    running.sort(byAgeAndPhase);
    if (!allowsSurge(ds)) { plan.podsToDelete.push(...running.slice(1)); continue; }
    // surging: keep the oldest new pod and the oldest old pod, until the new one can take over
    let oldestNew: CoreV1Pod | undefined;
    let oldestOld: CoreV1Pod | undefined;
    for (const p of running) {
      if (p.metadata?.labels?.[revisionHashLabel] === hash) { if (!oldestNew) { oldestNew = p; continue; } } else if (!oldestOld) { oldestOld = p; continue; }
      plan.podsToDelete.push(p);
    }
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, now))) plan.podsToDelete.push(oldestOld);
  }
  // pods pinned to nodes that no longer exist and never bound
  for (const [name, pods] of podsByNode) {
    if (known.has(name)) continue;
    plan.podsToDelete.push(...pods.filter(p => !p.spec?.nodeName && !p.metadata?.deletionTimestamp));
  }
  return plan;
}
