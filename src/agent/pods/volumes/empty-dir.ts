// emptyDir volumes: a directory every user in the pod can write (0777), or for medium Memory a
// tmpfs mounted there. The tmpfs is sized as the kubelet sizes it (SizeMemoryBackedVolumes):
// the node's allocatable memory, or the pod's memory limit when smaller, or the volume's
// sizeLimit when smaller still; `noswap` where the kernel has it (6.3+), so that the volume's
// pages never reach the node's swap. Usage past sizeLimit on disk is the eviction manager's.
// Secret, downward API and projected volumes are memory-backed the same way.

import { chmod, mkdir, stat } from 'node:fs/promises';
import { release } from 'node:os';
import { parseQuantity } from '../../../api/quantity.ts';
import { atLeast, parseKernelVersion } from '../../machine/kernel.ts';
import type { Container, Pod } from '../types.ts';
import type { CoreV1EmptyDirVolumeSource } from '../../../schema/generated/types.ts';
import { mountAt, runMount } from './host-mounts.ts';

const memoryLimit = (c: Container) => parseQuantity(c.resources?.limits?.memory);

/**
 * The pod's memory limit as its cgroup gets it: the pod-level limit, or, when every container
 * declares one, the regular containers' and sidecars' together, or an init container's with the
 * sidecars when that is more; undefined when some container has no limit.
 */
export function podMemoryLimit(pod: Pod): number | undefined {
  const podLevel = parseQuantity((pod.spec as { resources?: { limits?: Record<string, unknown> } }).resources?.limits?.memory);
  if (podLevel) return podLevel;
  const inits = pod.spec.initContainers ?? [];
  const all = [...inits, ...pod.spec.containers];
  if (all.some(c => !memoryLimit(c))) return undefined;
  const sidecars = inits.filter(c => c.restartPolicy === 'Always').reduce((n, c) => n + memoryLimit(c)!, 0);
  const regular = pod.spec.containers.reduce((n, c) => n + memoryLimit(c)!, 0);
  const init = Math.max(0, ...inits.filter(c => c.restartPolicy !== 'Always').map(c => memoryLimit(c)!));
  return sidecars + Math.max(regular, init);
}

/** the size of a memory-backed emptyDir in bytes, or undefined for the kernel's default */
export function memoryVolumeBytes(pod: Pod, source: CoreV1EmptyDirVolumeSource, nodeAllocatableMemory: number | undefined): number | undefined {
  let size = nodeAllocatableMemory && nodeAllocatableMemory > 0 ? nodeAllocatableMemory : undefined;
  // each narrower bound wins only when it is positive and no larger than what is there
  for (const bound of [podMemoryLimit(pod), parseQuantity(source.sizeLimit)]) {
    if (bound && bound > 0 && (size === undefined || bound <= size)) size = bound;
  }
  return size === undefined ? undefined : Math.ceil(size);
}

export function tmpfsOptions(sizeBytes: number | undefined, kernelRelease = release()): string[] {
  const opts = sizeBytes !== undefined ? [`size=${sizeBytes}`] : [];
  if (atLeast(parseKernelVersion(kernelRelease), [6, 3, 0])) opts.push('noswap');
  return opts;
}

export async function setUpEmptyDir(path: string, pod: Pod, source: CoreV1EmptyDirVolumeSource, nodeAllocatableMemory: number | undefined): Promise<void> {
  await mkdir(path, { recursive: true });
  if (source.medium === 'Memory' && (await mountAt(path))?.fsType !== 'tmpfs') {
    const opts = tmpfsOptions(memoryVolumeBytes(pod, source, nodeAllocatableMemory));
    await runMount('mount', ['-t', 'tmpfs', ...(opts.length ? ['-o', opts.join(',')] : []), 'tmpfs', path]);
  }
  // rwx for all; a fresh tmpfs keeps its sticky bit (1777), as the kubelet leaves it
  if (((await stat(path)).mode & 0o777) !== 0o777) await chmod(path, 0o777);
}

/**
 * Secret, downward API and projected volumes live on a tmpfs of their own, as the kubelet wraps
 * them in a memory-backed emptyDir, so that secrets never reach the node's disk. Mounting needs
 * root: an agent running without it (a simulated node in a test) keeps them in plain directories.
 */
export async function setUpMemoryWrapper(path: string, pod: Pod, nodeAllocatableMemory: number | undefined): Promise<void> {
  if (process.getuid?.() !== 0) { await mkdir(path, { recursive: true }); return; }
  await setUpEmptyDir(path, pod, { medium: 'Memory' }, nodeAllocatableMemory);
}
