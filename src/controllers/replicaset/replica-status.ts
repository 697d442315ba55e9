// The status a ReplicaSet or ReplicationController reports, computed from the pods it controls
// as Kubernetes' calculateStatus does: counts, observedGeneration, and the ReplicaFailure
// condition while creating or deleting pods fails. Pure.

import type { LabelSelector } from '../../api/selectors/label.ts';
import { matchesLabels } from '../../api/selectors/label.ts';
import { jsonEqual } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import type { AppsV1ReplicaSetCondition, CoreV1Pod } from '../../schema/generated/types.ts';
import { isPodAvailable, isPodReady } from '../pod-readiness.ts';

export interface ReplicaStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: AppsV1ReplicaSetCondition[];
}

export interface StatusInput {
  previous: ReplicaStatus | undefined;
  generation: number | undefined;
  minReadySeconds: number;
  /** the template's labels as a selector: a pod matching it is fully labeled */
  templateLabels: LabelSelector;
  /** active pods the owner controls */
  pods: CoreV1Pod[];
  /** terminating pods it controls; undefined where the kind does not report them */
  terminating?: CoreV1Pod[];
  /** the failure of this sync's creations or deletions */
  failure?: { message: string; wantedMore: boolean };
  now: number;
}

export const replicaFailure = 'ReplicaFailure';

export function replicaStatus(input: StatusInput): ReplicaStatus {
  const { pods, now } = input;
  let labeled = 0, ready = 0, available = 0;
  for (const p of pods) {
    if (matchesLabels(input.templateLabels, p.metadata?.labels)) labeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, input.minReadySeconds, now)) available++;
    }
  }
  const conditions = (input.previous?.conditions ?? []).slice();
  const at = conditions.findIndex(c => c.type === replicaFailure);
  if (input.failure && at < 0) {
    conditions.push({ type: replicaFailure, status: 'True', lastTransitionTime: rfc3339(now), reason: input.failure.wantedMore ? 'FailedCreate' : 'FailedDelete', message: input.failure.message });
  } else if (!input.failure && at >= 0) {
    conditions.splice(at, 1);
  }
  const status: ReplicaStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: labeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: input.previous?.observedGeneration,
  };
  if (input.terminating) status.terminatingReplicas = input.terminating.length;
  if (conditions.length) status.conditions = conditions;
  return status;
}

/** whether the status needs writing (observedGeneration is set on the write) */
export function statusChanged(prev: ReplicaStatus | undefined, next: ReplicaStatus, generation: number | undefined): boolean {
  const p = prev ?? { replicas: 0 };
  return (p.replicas ?? 0) !== next.replicas
    || (p.fullyLabeledReplicas ?? 0) !== (next.fullyLabeledReplicas ?? 0)
    || (p.readyReplicas ?? 0) !== (next.readyReplicas ?? 0)
    || (p.availableReplicas ?? 0) !== (next.availableReplicas ?? 0)
    || p.terminatingReplicas !== next.terminatingReplicas
    || (p.observedGeneration ?? 0) !== (generation ?? 0)
    || !jsonEqual(p.conditions ?? [], next.conditions ?? []);
}
