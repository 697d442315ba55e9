// PodResourcesLister v1 over the agent's pods and its device manager: List (the active pods,
// each container with the devices it holds), Get (one pod by namespace and name, behind the
// KubeletPodResourcesGet gate) and GetAllocatableResources (the healthy devices). orch has no CPU
// or memory manager, so cpu_ids and memory stay empty, as on a kubelet with the `none` policies;
// dynamic_resources stays empty too (no DRA on the node). Errors are the kubelet's plain errors
// (gRPC UNKNOWN with its message).

import { status as grpcStatus, type sendUnaryData, type ServerUnaryCall, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Device } from '../devices/protos.ts';
import type { Pod } from '../pods/types.ts';

export interface PodResourcesSource {
  /** pods that hold or may hold resources: not finished */
  activePods(): Pod[];
  /** container → resource → devices */
  devices(podUID: string): Map<string, Map<string, Device[]>>;
  /** resource → healthy devices */
  allocatable(): Map<string, Device[]>;
  getEnabled(): boolean;
}

interface ContainerDevices { resourceName: string; deviceIds: string[]; topology: { nodes: Array<{ ID: number }> } | null }

/** one entry per device, with its NUMA node, as the kubelet lists them */
function containerDevices(byResource: Map<string, Device[]> | undefined): ContainerDevices[] {
  const out: ContainerDevices[] = [];
  for (const [resourceName, devices] of [...(byResource ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
    for (const d of devices) {
      const nodes = d.topology?.nodes ?? [];
      if (!nodes.length) out.push({ resourceName, deviceIds: [d.ID], topology: null });
      for (const n of nodes) out.push({ resourceName, deviceIds: [d.ID], topology: { nodes: [{ ID: n.ID }] } });
    }
  }
  return out;
}

function podResources(pod: Pod, src: PodResourcesSource) {
  const held = src.devices(pod.metadata.uid);
  // sidecars (restartable init containers) run beside the containers and are listed with them
  const containers = [...(pod.spec.initContainers ?? []).filter(c => c.restartPolicy === 'Always'), ...pod.spec.containers];
  return {
    name: pod.metadata.name,
    namespace: pod.metadata.namespace,
    containers: containers.map(c => ({ name: c.name, devices: containerDevices(held.get(c.name)), cpuIds: [], memory: [], dynamicResources: [] })),
    cpuIds: [],
    memory: [],
  };
}

const unknown = (details: string) => ({ code: grpcStatus.UNKNOWN, details });

export function podResourcesHandlers(src: PodResourcesSource): UntypedServiceImplementation {
  return {
    List(_call: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) {
      done(null, { podResources: src.activePods().map(p => podResources(p, src)) });
    },
    Get(call: ServerUnaryCall<{ podName: string; podNamespace: string }, unknown>, done: sendUnaryData<unknown>) {
      if (!src.getEnabled()) return done(unknown('PodResources API Get method disabled'));
      const { podName, podNamespace } = call.request;
      const pod = src.activePods().find(p => p.metadata.name === podName && p.metadata.namespace === podNamespace);
      if (!pod) return done(unknown(`pod ${podName} in namespace ${podNamespace} not found`));
      done(null, { podResources: podResources(pod, src) });
    },
    GetAllocatableResources(_call: ServerUnaryCall<unknown, unknown>, done: sendUnaryData<unknown>) {
      done(null, { devices: containerDevices(src.allocatable()), cpuIds: [], memory: [] });
    },
  };
}
