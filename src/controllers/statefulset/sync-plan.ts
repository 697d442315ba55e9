// One StatefulSet sync as Kubernetes' defaultStatefulSetControl decides it, without I/O: which
// pods and claims to create, which pods to delete (failed ones, ordinals scaled away, pods of an
// old revision in a rolling update), which claims need other owners, and the status to record.
// OrderedReady handles one pod at a time in ordinal order and stops at the first that is not
// Running, Ready and available; Parallel does everything at once.

import type { AppsV1StatefulSetStatus, CoreV1PersistentVolumeClaim, CoreV1Pod, CoreV1PodTemplateSpec, MetaV1OwnerReference } from '../../schema/generated/types.ts';
import { isPodAvailable, isPodReady, nextAvailabilityMs } from '../pod-readiness.ts';
import { claimOwnersWanted } from './claim-retention.ts';
import { claimsFor, identityMatches, inOrdinalRange, newStatefulPod, ordinalOf, podRevision, replicasOf, startOrdinal, type StatefulSet } from './identity.ts';

export interface RevisionRef { name: string; template: CoreV1PodTemplateSpec }

export interface SyncInput {
  set: StatefulSet;
  /** the pods the set controls */
  pods: CoreV1Pod[];
  current: RevisionRef;
  update: RevisionRef;
  collisionCount: number;
  /** an existing claim by name */
  claim(name: string): CoreV1PersistentVolumeClaim | undefined;
  now: number;
}

export type Action =
  | { kind: 'createClaim'; claim: CoreV1PersistentVolumeClaim; pod: string }
  | { kind: 'createPod'; pod: CoreV1Pod }
  | { kind: 'deletePod'; pod: CoreV1Pod }
  | { kind: 'relabelPod'; pod: CoreV1Pod; labels: Record<string, string> }
  | { kind: 'setClaimOwners'; claim: CoreV1PersistentVolumeClaim; ownerReferences: MetaV1OwnerReference[] };

export interface SyncPlan {
  status: AppsV1StatefulSetStatus;
  /** run in order, stopping at the first failure (OrderedReady); or all at once (Parallel) */
  actions: Action[];
  parallel: boolean;
  /** when a ready pod turns available under minReadySeconds, to look again */
  recheckAtMs?: number;
}

const isCreated = (p: CoreV1Pod) => !!p.status?.phase;
const isTerminating = (p: CoreV1Pod) => !!p.metadata?.deletionTimestamp;
const isRunningAndReady = (p: CoreV1Pod) => p.status?.phase === 'Running' && isPodReady(p);
const isHealthy = (p: CoreV1Pod) => isRunningAndReady(p) && !isTerminating(p);

export function replicaCounts(pods: CoreV1Pod[], minReadySeconds: number, current: string, update: string, now: number) {
  const s = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const p of pods) {
    if (isCreated(p)) s.replicas++;
    if (isRunningAndReady(p)) {
      s.readyReplicas++;
      if (isPodAvailable(p, minReadySeconds, now)) s.availableReplicas++;
    }
    if (isCreated(p) && !isTerminating(p)) {
      if (podRevision(p) === current) s.currentReplicas++;
      if (podRevision(p) === update) s.updatedReplicas++;
    }
  }
  return s;
}

/** maxUnavailable of a rolling update: a count or a percentage of replicas rounded down, at least 1 */
export function maxUnavailableOf(value: number | string | undefined, replicas: number): number {
  let n = 1;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\d+%$/.test(value)) n = Math.floor((Number(value.slice(0, -1)) * replicas) / 100);
  else if (typeof value === 'string' && /^\d+$/.test(value)) n = Number(value);
  return Math.max(1, n);
}

/** the claims a pod lacks, to be made before it (or for a pending pod, now) */
function missingClaims(input: SyncInput, ordinal: number, pod: string): Action[] {
  return [...claimsFor(input.set, ordinal).values()].filter(c => !input.claim(c.metadata!.name!)).map(claim => ({ kind: 'createClaim' as const, claim, pod }));
}

function ownerFixes(input: SyncInput, pod: CoreV1Pod): Action[] {
  const out: Action[] = [];
  for (const c of claimsFor(input.set, ordinalOf(pod)).values()) {
    const existing = input.claim(c.metadata!.name!);
    const refs = existing && claimOwnersWanted(existing, input.set, pod);
    if (existing && refs) out.push({ kind: 'setClaimOwners', claim: existing, ownerReferences: refs });
  }
  return out;
}

/** a claim still going (deleted with a pod scaled away earlier) must be gone before a new pod uses the name */
function claimIsStale(input: SyncInput, ordinal: number): boolean {
  return [...claimsFor(input.set, ordinal).values()].some(c => !!input.claim(c.metadata!.name!)?.metadata?.deletionTimestamp);
}

export function planSync(input: SyncInput): SyncPlan {
  const { set, current, update, now } = input;
  const minReady = set.spec?.minReadySeconds ?? 0;
  const replicaCount = replicasOf(set);
  const start = startOrdinal(set);
  const status: AppsV1StatefulSetStatus = {
    observedGeneration: set.metadata.generation,
    currentRevision: current.name,
    updateRevision: update.name,
    collisionCount: input.collisionCount,
    ...replicaCounts(input.pods, minReady, current.name, update.name, now),
  };
  const parallel = set.spec?.podManagementPolicy === 'Parallel';
  const monotonic = !parallel;
  const actions: Action[] = [];
  const plan = (): SyncPlan => ({ status: withoutZeros(status), actions, parallel, recheckAtMs: minReady ? nextAvailabilityMs(input.pods, minReady, now) : undefined });
  if (set.metadata.deletionTimestamp) return plan();

  const replicas: Array<CoreV1Pod | undefined> = new Array(replicaCount).fill(undefined);
  const condemned: CoreV1Pod[] = [];
  for (const p of input.pods) {
    const o = ordinalOf(p);
    if (inOrdinalRange(p, set)) replicas[o - start] = p;
    else if (o >= 0) condemned.push(p);
  }
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  let firstUnhealthy: CoreV1Pod | undefined = replicas.find(p => p && !isHealthy(p));
  if (!firstUnhealthy) for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!)) { firstUnhealthy = condemned[i]; break; }

  // pods below the partition are made at the current revision, the rest at the update revision
  const partition = set.spec?.updateStrategy?.type === 'OnDelete' ? undefined : set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
  const fresh = (ordinal: number) => {
    const atCurrent = set.spec?.updateStrategy?.type !== 'OnDelete' && partition !== undefined && ordinal < start + partition;
    return atCurrent ? newStatefulPod(set, current.template, ordinal, current.name) : newStatefulPod(set, update.template, ordinal, update.name);
  };

  // each living replica, in ordinal order; in OrderedReady the first that is not ready stops the round
  for (let i = 0; i < replicaCount; i++) {
    const ordinal = start + i;
    const pod = replicas[i];
    if (pod && (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded')) {
      if (!isTerminating(pod)) actions.push({ kind: 'deletePod', pod });
      if (monotonic) return plan();
      continue;
    }
    if (!pod) {
      if (claimIsStale(input, ordinal)) { if (monotonic) return plan(); continue; }
      const made = fresh(ordinal);
      actions.push(...missingClaims(input, ordinal, made.metadata!.name!), { kind: 'createPod', pod: made });
      if (monotonic) return plan();
      continue;
    }
    if (pod.status?.phase === 'Pending') actions.push(...missingClaims(input, ordinal, pod.metadata!.name!));
    if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now))) return plan();
    if (!identityMatches(set, pod)) actions.push({ kind: 'relabelPod', pod, labels: newStatefulPod(set, update.template, ordinal, podRevision(pod)).metadata!.labels! });
    actions.push(...ownerFixes(input, pod));
  }

  // claims of condemned pods take the owners their retention asks for before the pods go
  for (const pod of condemned) actions.push(...ownerFixes(input, pod));

  // ordinals scaled away, highest first; in OrderedReady only once every replica is healthy
  for (const pod of condemned) {
    if (isTerminating(pod)) { if (monotonic) return plan(); continue; }
    if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now))) return plan();
    actions.push({ kind: 'deletePod', pod });
    if (monotonic) return plan();
  }

  if (set.spec?.updateStrategy?.type === 'OnDelete') return plan();

  // rolling update: delete up to maxUnavailable pods of another revision, highest ordinal first, at or above the partition
  const maxUnavailable = maxUnavailableOf(set.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, replicaCount);
  const unavailable = replicas.filter(p => !p || !isHealthy(p)).length;
  if (unavailable >= maxUnavailable) return plan();
  let budget = maxUnavailable - unavailable;
  for (let i = replicaCount - 1; i >= (partition ?? 0) && budget > 0; i--) {
    const pod = replicas[i]!;
    if (podRevision(pod) !== update.name && !isTerminating(pod)) {
      actions.push({ kind: 'deletePod', pod });
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
      budget--;
    }
  }
  return plan();
}

/** the counts Go leaves out when zero (omitempty), as kube-controller-manager's writes show them; collisionCount, a pointer, stays */
function withoutZeros(s: AppsV1StatefulSetStatus): AppsV1StatefulSetStatus {
  const out = { ...s };
  for (const k of ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) if (!out[k]) delete out[k];
  return out;
}

/** a rolling update whose every replica runs the update revision and is ready is complete: current becomes update */
export function completeRollingUpdate(set: StatefulSet, status: AppsV1StatefulSetStatus): AppsV1StatefulSetStatus {
  const r = replicasOf(set);
  if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && status.updatedReplicas === r && status.readyReplicas === r && status.replicas === r) {
    return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
  }
  return status;
}

/** whether the recorded status differs from what the controller computed (so it is written) */
export function statusChanged(old: AppsV1StatefulSetStatus | undefined, s: AppsV1StatefulSetStatus): boolean {
  const o: AppsV1StatefulSetStatus = old ?? { replicas: 0 };
  return (s.observedGeneration ?? 0) > (o.observedGeneration ?? 0) || (['replicas', 'currentReplicas', 'readyReplicas', 'updatedReplicas', 'availableReplicas'] as const).some(k => (s[k] ?? 0) !== (o[k] ?? 0))
    || s.currentRevision !== o.currentRevision || s.updateRevision !== o.updateRevision || (s.collisionCount ?? 0) !== (o.collisionCount ?? 0);
}

