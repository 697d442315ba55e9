// Ephemeral containers (kubectl debug) as the kubelet runs them: each is started once in the
// pod's running sandbox, whatever state the other containers are in (before init containers, so
// that a pod stuck initializing can be debugged), and never again once the runtime has had it —
// not after it exits, not in a new sandbox. One with a targetContainerName joins that
// container's process namespace (CRI NamespaceMode TARGET). Its status is reported in
// status.ephemeralContainerStatuses: never ready, no `started`, no resources. Pure.

import type { CoreV1EphemeralContainer } from '../../schema/generated/types.ts';
import type { Container, Pod, RuntimePod } from './types.ts';

export interface EphemeralStart {
  /** the ephemeral container, in the shape of a container (the fields it may have are a subset) */
  container: Container;
  /** the runtime id of the target container whose process namespace it joins */
  targetId?: string;
}

export const ephemeralContainers = (pod: Pod): CoreV1EphemeralContainer[] => pod.spec.ephemeralContainers ?? [];

/**
 * The ephemeral containers to start now. Nothing starts while a sandbox is being (re)made or the
 * pod is being stopped; a container the runtime has any record of (running or exited, in any
 * sandbox) is never started again.
 */
export function ephemeralToStart(pod: Pod, runtime: RuntimePod | undefined, sandboxId: string | undefined): EphemeralStart[] {
  if (!sandboxId || pod.metadata.deletionTimestamp) return [];
  const known = new Set((runtime?.containers ?? []).map(c => c.name));
  const out: EphemeralStart[] = [];
  for (const ec of ephemeralContainers(pod)) {
    if (known.has(ec.name)) continue;
    const { targetContainerName, ...rest } = ec;
    const start: EphemeralStart = { container: rest as Container };
    if (targetContainerName) {
      // the target's newest instance in this sandbox; the runtime refuses one that is gone
      const target = (runtime?.containers ?? []).filter(c => c.name === targetContainerName && c.sandboxId === sandboxId).sort((a, b) => b.createdAt - a.createdAt)[0];
      if (target) start.targetId = target.id;
    }
    out.push(start);
  }
  return out;
}

/**
 * The process namespace an ephemeral container gets: the target's when it has one and the pod
 * does not already share one namespace between its containers (or the host's), as the kubelet
 * decides it.
 */
export function ephemeralPidNamespace(podPid: 'NODE' | 'POD' | 'CONTAINER', targetId: string | undefined): { pid: 'NODE' | 'POD' | 'CONTAINER' | 'TARGET'; targetId?: string } {
  return targetId && podPid === 'CONTAINER' ? { pid: 'TARGET', targetId } : { pid: podPid };
}
