// Capacity and allocatable as a node reports them. Allocatable is what pods may have: capacity
// less what is reserved for the system and for Kubernetes' own daemons, less the hard eviction
// threshold (pods never get to use memory the agent would evict them for), less hugepages for
// memory (they are set aside from it).

import { parseQuantity } from '../../api/quantity.ts';
import type { MachineFacts } from '../machine/facts.ts';

export type ResourceList = Record<string, string>;

export interface AllocatableInputs {
  systemReserved?: Record<string, string>;
  kubeReserved?: Record<string, string>;
  evictionHard?: Record<string, string>;
}

export interface NodeResources {
  capacity: ResourceList;
  allocatable: ResourceList;
}

/** an eviction threshold ("100Mi" or "10%") in bytes for a resource of the given capacity */
export function thresholdBytes(value: string | undefined, capacity: number): number {
  if (!value) return 0;
  if (value.endsWith('%')) return Math.ceil((Number(value.slice(0, -1)) / 100) * capacity);
  return parseQuantity(value) ?? 0;
}

/** whole bytes as Kubernetes writes memory: the largest binary suffix that divides exactly */
export function formatBytes(n: number): string {
  const b = Math.max(0, Math.floor(n));
  for (const [suffix, size] of [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
    if (b >= size && b % size === 0) return `${b / size}${suffix}`;
  }
  return String(b);
}

/** CPU cores as Kubernetes writes them: whole cores plain, fractions in millicores */
export function formatCpu(cores: number): string {
  const milli = Math.max(0, Math.round(cores * 1000));
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

function reserved(inputs: AllocatableInputs, name: string): number {
  return (parseQuantity(inputs.systemReserved?.[name]) ?? 0) + (parseQuantity(inputs.kubeReserved?.[name]) ?? 0);
}

export function nodeResources(facts: MachineFacts, nodefsCapacityBytes: number, maxPods: number, inputs: AllocatableInputs): NodeResources {
  const hugepageTotal = Object.values(facts.hugepages).reduce((a, b) => a + b, 0);
  const capacity: ResourceList = {
    cpu: formatCpu(facts.cpus),
    'ephemeral-storage': formatBytes(nodefsCapacityBytes),
    memory: formatBytes(facts.memoryBytes),
    pods: String(maxPods),
  };
  for (const [size, bytes] of Object.entries(facts.hugepages)) capacity[`hugepages-${size}`] = formatBytes(bytes);

  const evict = inputs.evictionHard ?? {};
  const allocatable: ResourceList = {
    cpu: formatCpu(facts.cpus - reserved(inputs, 'cpu')),
    'ephemeral-storage': formatBytes(nodefsCapacityBytes - reserved(inputs, 'ephemeral-storage') - thresholdBytes(evict['nodefs.available'], nodefsCapacityBytes)),
    memory: formatBytes(facts.memoryBytes - reserved(inputs, 'memory') - thresholdBytes(evict['memory.available'], facts.memoryBytes) - hugepageTotal),
    pods: String(maxPods),
  };
  for (const [size, bytes] of Object.entries(facts.hugepages)) allocatable[`hugepages-${size}`] = formatBytes(bytes - reserved(inputs, `hugepages-${size}`));
  return { capacity, allocatable };
}
