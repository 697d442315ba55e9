// Swap on the node (appendix E): the agent refuses to start on a machine with swap on unless
// failSwapOn is false; pods then get swap only under LimitedSwap, and only Burstable ones, in
// proportion to their memory request.

import type { HostFiles } from './machine/host-files.ts';

export type SwapBehavior = 'NoSwap' | 'LimitedSwap';

/** total swap the kernel has turned on, in bytes (from /proc/swaps) */
export async function swapOnBytes(files: HostFiles): Promise<number> {
  const lines = ((await files.read('proc/swaps')) ?? '').split('\n').slice(1).filter(l => l.trim());
  return lines.reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[2] ?? 0) * 1024, 0);
}

/** the start-up error for swap that is on, or undefined when the agent may run */
export function swapStartupProblem(swapBytes: number, failSwapOn: boolean): string | undefined {
  if (swapBytes > 0 && failSwapOn) return 'running with swap on is not supported, please disable swap or set --fail-swap-on flag to false';
  return undefined;
}

/**
 * A container's swap limit in bytes under a behavior: none for NoSwap, for containers of pods
 * that are not Burstable, or without a memory request; otherwise its request's share of node
 * memory applied to the swap there is.
 */
export function containerSwapLimit(behavior: SwapBehavior, opts: { qosClass: string; memoryRequestBytes: number; memoryLimitBytes?: number; nodeMemoryBytes: number; swapCapacityBytes: number }): number {
  if (behavior !== 'LimitedSwap' || opts.qosClass !== 'Burstable' || opts.memoryRequestBytes <= 0 || opts.nodeMemoryBytes <= 0) return 0;
  // a container whose request equals its limit is held to its memory, like a Guaranteed one
  if (opts.memoryLimitBytes !== undefined && opts.memoryLimitBytes === opts.memoryRequestBytes) return 0;
  return Math.floor((opts.memoryRequestBytes / opts.nodeMemoryBytes) * opts.swapCapacityBytes);
}

/**
 * The swap part of a container's CRI resources. Swap limits exist only on cgroup v2
 * (memory.swap.max); NoSwap sets none there. On cgroup v1 the runtime's defaults stand.
 */
export function criSwapResources(behavior: SwapBehavior, cgroupV2: boolean, swapLimitBytes: number): { unified?: Record<string, string> } {
  if (!cgroupV2) return {};
  return { unified: { 'memory.swap.max': String(behavior === 'LimitedSwap' ? swapLimitBytes : 0) } };
}
