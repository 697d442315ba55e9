// What a node has left right now: the signals behind the pressure conditions and eviction
// thresholds (memory.available, nodefs.available, nodefs.inodesFree, pid.available).

import { statfs } from 'node:fs/promises';
import { parseKbTable, type HostFiles } from './host-files.ts';

export interface MachineUsage {
  memoryCapacityBytes: number;
  memoryAvailableBytes: number;
  nodefsCapacityBytes: number;
  nodefsAvailableBytes: number;
  inodes: number;
  inodesFree: number;
  pidMax: number;
  processes: number;
}

export type DiskStats = (path: string) => Promise<{ capacity: number; available: number; inodes: number; inodesFree: number }>;

export const realDiskStats: DiskStats = async path => {
  const s = await statfs(path);
  return { capacity: s.blocks * s.bsize, available: s.bavail * s.bsize, inodes: s.files, inodesFree: s.ffree };
};

/**
 * Memory in use as Kubernetes counts it: the root cgroup's usage minus inactive file pages
 * (the working set), since page cache the kernel can drop is not pressure. Without a readable
 * root memory cgroup, what /proc/meminfo calls available.
 */
async function memoryAvailable(files: HostFiles, capacity: number, meminfo: Map<string, number>): Promise<number> {
  const v1Usage = Number((await files.read('sys/fs/cgroup/memory/memory.usage_in_bytes'))?.trim());
  if (v1Usage > 0) {
    const inactive = /^total_inactive_file (\d+)$/m.exec((await files.read('sys/fs/cgroup/memory/memory.stat')) ?? '');
    const workingSet = Math.max(0, v1Usage - Number(inactive?.[1] ?? 0));
    return Math.max(0, capacity - workingSet);
  }
  return meminfo.get('MemAvailable') ?? meminfo.get('MemFree') ?? capacity;
}

export async function readMachineUsage(files: HostFiles, rootDir: string, disk: DiskStats = realDiskStats): Promise<MachineUsage> {
  const meminfo = parseKbTable(await files.read('proc/meminfo'));
  const capacity = meminfo.get('MemTotal') ?? 0;
  const fsStats = await disk(rootDir);
  // /proc/loadavg's fourth field is "running/total" scheduling entities, each holding a pid
  const total = /\s\d+\/(\d+)\s/.exec((await files.read('proc/loadavg')) ?? '');
  return {
    memoryCapacityBytes: capacity,
    memoryAvailableBytes: await memoryAvailable(files, capacity, meminfo),
    nodefsCapacityBytes: fsStats.capacity,
    nodefsAvailableBytes: fsStats.available,
    inodes: fsStats.inodes,
    inodesFree: fsStats.inodesFree,
    pidMax: Number((await files.read('proc/sys/kernel/pid_max'))?.trim()) || 32768,
    processes: Number(total?.[1] ?? 0),
  };
}
