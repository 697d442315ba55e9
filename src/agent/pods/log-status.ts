// Whether a container has a log to show, decided from the pod status the agent reports, as the
// kubelet's validateContainerLogStatus decides it and in its words: a container with no status
// yet is not available, `previous` needs a terminated last state, and a container that never
// ran says why it waits (an image that cannot be pulled, back-off, initializing). Pure.

import type { PodStatus } from './types.ts';

type Status = NonNullable<PodStatus['containerStatuses']>[number];

function statusOf(status: PodStatus | undefined, container: string): Status | undefined {
  const all: Status[] = [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? []), ...(status?.ephemeralContainerStatuses ?? [])];
  return all.find(x => x?.name === container);
}

/** the refusal for this container's log, or undefined when it has one */
export function containerLogProblem(status: PodStatus | undefined, container: string, podName: string, previous: boolean): string | undefined {
  const s = statusOf(status, container);
  const which = `container "${container}" in pod "${podName}"`;
  if (!s) return `${which} is not available`;
  const last = s.lastState?.terminated;
  if (previous) return last?.containerID ? undefined : `previous terminated ${which} not found`;
  const state = s.state ?? {};
  if (state.running) return undefined;
  if (state.terminated) return state.terminated.containerID || last?.containerID ? undefined : `${which} is terminated`;
  if (last) return last.containerID ? undefined : `${which} is terminated`;
  const reason = state.waiting?.reason;
  if (reason === 'ErrImagePull') return `${which} is waiting to start: image can't be pulled`;
  if (reason === 'ImagePullBackOff') return `${which} is waiting to start: trying and failing to pull image`;
  if (state.waiting) return `${which} is waiting to start: ${reason ?? ''}`;
  return `${which} is waiting to start - no logs yet`;
}

/**
 * The runtime ID of the instance whose log is shown, as the kubelet picks it: for `previous` the
 * last terminated one; else the current one, or the last one while the container waits to
 * restart (a crash-looping container shows its last run, not the one before)
 */
export function logContainerId(status: PodStatus | undefined, container: string, previous: boolean): string | undefined {
  const s = statusOf(status, container);
  const last = s?.lastState?.terminated?.containerID;
  const state = s?.state ?? {};
  const id = previous ? last : state.running ? s?.containerID : state.terminated ? state.terminated.containerID || last : last;
  return id ? id.replace(/^[a-z0-9.+-]+:\/\//, '') : undefined;
}
