// The checkpoint endpoint's view of the node: the pods the agent runs (their specs name the
// containers a request may ask for) and the runtime's running instances (the kubelet checkpoints
// only a running container; a stopped one is "not found" by the runtime, a 500).

import type { PodWorkers } from '../pods/pod-workers.ts';
import type { SnapshotReader } from '../pods/runtime-snapshot.ts';
import type { CheckpointBackend } from '../server/checkpoint-route.ts';
import type { Checkpointer } from './checkpoint.ts';

export function checkpointBackend(workers: PodWorkers, reader: SnapshotReader, cp: Checkpointer): CheckpointBackend {
  return {
    pod(namespace, name) {
      const pod = workers.pods().find(p => p.metadata.namespace === namespace && p.metadata.name === name);
      if (!pod) return undefined;
      const spec = pod.spec ?? {};
      const containerNames = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])].map(c => c.name);
      return {
        containerNames,
        async runningContainerId(container) {
          const rt = await reader.readPod(pod.metadata.uid);
          return (rt?.containers ?? []).filter(c => c.name === container && c.state === 'CONTAINER_RUNNING').sort((a, b) => b.createdAt - a.createdAt)[0]?.id;
        },
      };
    },
    checkpoint: req => cp.checkpoint(req),
  };
}
