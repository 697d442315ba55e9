// What each eviction signal observes now, from the Summary: the amount available and the
// capacity it is measured against.

import type { Summary } from '../stats/summary-types.ts';
import type { Signal } from './thresholds.ts';

export interface Observation { available: number; capacity: number }
export type Observations = Partial<Record<Signal, Observation>>;

export const signalCondition: Record<Signal, 'MemoryPressure' | 'DiskPressure' | 'PIDPressure'> = {
  'memory.available': 'MemoryPressure',
  'nodefs.available': 'DiskPressure',
  'nodefs.inodesFree': 'DiskPressure',
  'imagefs.available': 'DiskPressure',
  'imagefs.inodesFree': 'DiskPressure',
  'pid.available': 'PIDPressure',
};

/** the resource a signal reclaims, as eviction messages name it */
export const signalResource: Record<Signal, 'memory' | 'ephemeral-storage' | 'inodes' | 'pids'> = {
  'memory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'pid.available': 'pids',
};

export function observe(s: Summary): Observations {
  const out: Observations = {};
  const n = s.node;
  if (n.memory?.availableBytes !== undefined) out['memory.available'] = { available: n.memory.availableBytes, capacity: n.memory.availableBytes + (n.memory.workingSetBytes ?? 0) };
  if (n.fs?.availableBytes !== undefined && n.fs.capacityBytes !== undefined) out['nodefs.available'] = { available: n.fs.availableBytes, capacity: n.fs.capacityBytes };
  if (n.fs?.inodesFree !== undefined && n.fs.inodes !== undefined) out['nodefs.inodesFree'] = { available: n.fs.inodesFree, capacity: n.fs.inodes };
  const img = n.runtime?.imageFs;
  if (img?.availableBytes !== undefined && img.capacityBytes !== undefined) out['imagefs.available'] = { available: img.availableBytes, capacity: img.capacityBytes };
  if (img?.inodesFree !== undefined && img.inodes !== undefined) out['imagefs.inodesFree'] = { available: img.inodesFree, capacity: img.inodes };
  if (n.rlimit?.maxpid !== undefined && n.rlimit.curproc !== undefined) out['pid.available'] = { available: n.rlimit.maxpid - n.rlimit.curproc, capacity: n.rlimit.maxpid };
  return out;
}
