// Which log file holds a container's output: the runtime writes <pod log dir>/<container>/
// <restart count>.log, so the current instance and the one before it (`previous`) are found
// from the runtime's containers. Failures are worded as the kubelet words them.

import { join } from 'node:path';
import { podLogDir } from './cri-config.ts';
import type { LogLocation } from '../logs/container-logs-route.ts';
import type { PodWorkers } from './pod-workers.ts';
import type { SnapshotReader } from './runtime-snapshot.ts';
import { containerLogProblem, logContainerId } from './log-status.ts';
import type { PodStatus } from './types.ts';

/** `statusOf`: the status the agent last computed for a pod, whose container states decide whether there is a log (log-status.ts) */
export async function findLogFile(workers: PodWorkers, reader: SnapshotReader, podLogsDir: string, namespace: string, podName: string, container: string, previous: boolean, statusOf?: (uid: string) => PodStatus | undefined): Promise<LogLocation> {
  const pod = workers.pods().find(p => p.metadata.namespace === namespace && p.metadata.name === podName);
  if (!pod) return { code: 404, error: `pod "${podName}" does not exist` };
  // ephemeral containers' logs too (kubectl debug)
  const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])];
  if (!all.some(c => c.name === container)) return { code: 404, error: `container "${container}" not found in pod "${podName}"` };
  const status = statusOf?.(pod.metadata.uid);
  const problem = status ? containerLogProblem(status, container, podName, previous) : undefined;
  if (problem) return { code: 400, error: problem };
  const rt = await reader.readPod(pod.metadata.uid);
  const instances = (rt?.containers ?? []).filter(c => c.name === container).sort((a, b) => b.createdAt - a.createdAt);
  // the instance the reported status names; by age when the status does not say
  const id = logContainerId(status, container, previous);
  const chosen = (id && instances.find(c => c.id === id)) || (previous ? instances[1] : instances[0]);
  if (previous && !chosen) return { code: 400, error: `previous terminated container "${container}" in pod "${podName}" not found` };
  if (!chosen) return { code: 400, error: `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating` };
  const path = join(podLogDir(podLogsDir, pod), container, `${chosen.restartCount}.log`);
  let running = chosen.state === 'CONTAINER_RUNNING' || chosen.state === 'CONTAINER_CREATED';
  return {
    path,
    // the PLEG's latest relist says whether the instance still runs, without a call per check
    running: () => {
      const snap = reader.latest();
      if (!snap) return running;
      const now = snap.pods.get(pod.metadata.uid)?.containers.find(c => c.id === chosen.id);
      running = !!now && (now.state === 'CONTAINER_RUNNING' || now.state === 'CONTAINER_CREATED');
      return running;
    },
  };
}
