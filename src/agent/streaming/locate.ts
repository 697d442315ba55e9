// Which runtime container or sandbox an exec, attach or port-forward names, found as the
// kubelet finds it: among the pods the agent runs and the runtime's running containers, with
// the kubelet's wording when there is none.

import type { PodWorkers } from '../pods/pod-workers.ts';
import type { SnapshotReader } from '../pods/runtime-snapshot.ts';

export type Located = { id: string } | { code: 404 | 500; message: string };

export interface StreamTargets {
  container(namespace: string, pod: string, container: string): Promise<Located>;
  sandbox(namespace: string, pod: string): Promise<Located>;
}

export function streamTargets(workers: PodWorkers, reader: SnapshotReader): StreamTargets {
  const podNamed = (namespace: string, name: string) => workers.pods().find(p => p.metadata.namespace === namespace && p.metadata.name === name);
  return {
    async container(namespace, name, container) {
      const pod = podNamed(namespace, name);
      if (!pod) return { code: 404, message: 'pod does not exist' };
      const rt = await reader.readPod(pod.metadata.uid);
      // only a running instance is one to exec in or attach to
      const running = (rt?.containers ?? []).filter(c => c.name === container && c.state === 'CONTAINER_RUNNING').sort((a, b) => b.createdAt - a.createdAt)[0];
      if (!running) return { code: 500, message: `container not found (${JSON.stringify(container)})` };
      return { id: running.id };
    },
    async sandbox(namespace, name) {
      const pod = podNamed(namespace, name);
      if (!pod) return { code: 404, message: 'pod does not exist' };
      const rt = await reader.readPod(pod.metadata.uid);
      const ready = (rt?.sandboxes ?? []).find(s => s.state === 'SANDBOX_READY');
      if (!ready) return { code: 500, message: `pod not found (${JSON.stringify(`${name}_${namespace}`)})` };
      return { id: ready.id };
    },
  };
}
