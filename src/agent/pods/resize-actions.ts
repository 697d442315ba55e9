// In-place resize (InPlacePodVerticalScaling): which running containers' CPU and memory differ
// from what the runtime was given, and whether each is updated in place (UpdateContainerResources)
// or restarted, as its resizePolicy says for the resources that changed (NotRequired by default).
// Pure: the syncer carries the decisions out.

import { compareQuantities } from '../../api/quantity.ts';
import { isSidecar } from './restart-policy.ts';
import type { PodResources } from './resource-state.ts';
import type { Container, Pod, RuntimeContainer } from './types.ts';
import { podRequests } from './pod-cgroups.ts';

export interface ResizeStep { id: string; container: Container }
export interface ResizeActions {
  /** updated in place */
  update: ResizeStep[];
  /** restarted, their resizePolicy asking for it */
  restart: Array<ResizeStep & { message: string }>;
}

const resizable = ['cpu', 'memory'] as const;

/** the cpu and memory whose request or limit differs between two sets of resources */
export function changedResources(spec: PodResources[string][string] | undefined, had: PodResources[string][string] | undefined): string[] {
  const differs = (a: unknown, b: unknown) => (a === undefined || b === undefined ? a !== b : compareQuantities(String(a), String(b)) !== 0);
  return resizable.filter(r => differs(spec?.requests?.[r], had?.requests?.[r]) || differs(spec?.limits?.[r], had?.limits?.[r]));
}

export function resizeActions(pod: Pod, running: RuntimeContainer[], actuated: PodResources[string]): ResizeActions {
  const out: ResizeActions = { update: [], restart: [] };
  const resizableContainers = [...(pod.spec.initContainers ?? []).filter(isSidecar), ...pod.spec.containers];
  for (const c of resizableContainers) {
    const rc = running.find(r => r.name === c.name && r.state === 'CONTAINER_RUNNING');
    const had = actuated[c.name];
    if (!rc || !had) continue;
    const changed = changedResources({ requests: c.resources?.requests, limits: c.resources?.limits }, had);
    if (!changed.length) continue;
    const restart = changed.some(r => (c.resizePolicy ?? []).some(p => p.resourceName === r && p.restartPolicy === 'RestartContainer'));
    if (restart) out.restart.push({ id: rc.id, container: c, message: `Container ${c.name} resize requires restart` });
    else out.update.push({ id: rc.id, container: c });
  }
  return out;
}

/**
 * Whether the node could ever hold the resized pod: its requests against the node's allocatable
 * CPU (millicores) and memory (bytes). A resize that cannot fit stays pending as Infeasible, in
 * the kubelet's words; undefined when it fits.
 */
export function infeasibleResize(pod: Pod, allocatable: { cpuMilli: number; memoryBytes: number }): string | undefined {
  const want = podRequests(pod);
  if (want.memoryBytes > allocatable.memoryBytes) return `Node didn't have enough capacity: memory, requested: ${want.memoryBytes}, capacity: ${allocatable.memoryBytes}`;
  if (want.cpuMilli > allocatable.cpuMilli) return `Node didn't have enough capacity: cpu, requested: ${want.cpuMilli}, capacity: ${allocatable.cpuMilli}`;
  return undefined;
}
