// Whether an exited container runs again. Regular containers follow the pod's restartPolicy;
// a container's own restartPolicy (sidecar init containers, `Always`) wins; ordinary init
// containers are retried on failure unless the pod never restarts anything.

import type { Container, Pod } from './types.ts';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export function containerRestartPolicy(pod: Pod, c: Container, init: boolean): RestartPolicy {
  // the API accepts only these (a container's own: only Always)
  if (c.restartPolicy) return c.restartPolicy as RestartPolicy;
  const podPolicy = (pod.spec.restartPolicy ?? 'Always') as RestartPolicy;
  if (init) return podPolicy === 'Never' ? 'Never' : 'OnFailure';
  return podPolicy;
}

export function shouldRestart(policy: RestartPolicy, exitCode: number | undefined): boolean {
  if (policy === 'Always') return true;
  if (policy === 'OnFailure') return exitCode !== 0;
  return false;
}

export const isSidecar = (c: Container): boolean => c.restartPolicy === 'Always';
