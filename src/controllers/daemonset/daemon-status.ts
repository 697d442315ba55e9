// A DaemonSet's status as Kubernetes' daemon controller counts it: per node that should run a
// pod, whether one is scheduled there (bound or pinned), ready, available and of the current
// template; pods on nodes that should not run them are misscheduled. Pure.

import type { AppsV1DaemonSetStatus, CoreV1Node, CoreV1Pod } from '../../schema/generated/types.ts';
import { isPodAvailable, isPodReady } from '../pod-readiness.ts';
import { byAgeAndPhase, isPodUpdated, templateGeneration } from './daemon-pods.ts';
import { nodeShouldRunDaemonPod, type DaemonSet } from './placement.ts';

export function daemonStatus(ds: DaemonSet, nodes: CoreV1Node[], podsByNode: Map<string, CoreV1Pod[]>, hash: string, now: number): AppsV1DaemonSetStatus {
  const s = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
  const generation = templateGeneration(ds);
  for (const node of nodes) {
    const pods = podsByNode.get(node.metadata?.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) { if (pods.length) s.numberMisscheduled++; continue; }
    s.desiredNumberScheduled++;
    if (!pods.length) continue;
    s.currentNumberScheduled++;
    const pod = [...pods].sort(byAgeAndPhase)[0]!;
    if (isPodReady(pod)) {
      s.numberReady++;
      if (isPodAvailable(pod, ds.spec?.minReadySeconds ?? 0, now)) s.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) s.updatedNumberScheduled++;
  }
  const out: AppsV1DaemonSetStatus = { ...s, numberUnavailable: s.desiredNumberScheduled - s.numberAvailable, observedGeneration: ds.metadata.generation, collisionCount: ds.status?.collisionCount };
  // the fields Go leaves out when zero (omitempty), as kube-controller-manager's writes show them
  for (const k of omittedWhenZero) if (!out[k]) delete out[k];
  return out;
}

const omittedWhenZero = ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'] as const;

const fields = ['desiredNumberScheduled', 'currentNumberScheduled', 'numberMisscheduled', 'numberReady', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'observedGeneration', 'collisionCount'] as const;

export function daemonStatusChanged(old: AppsV1DaemonSetStatus | undefined, s: AppsV1DaemonSetStatus): boolean {
  return fields.some(k => (old?.[k] ?? 0) !== (s[k] ?? 0));
}
