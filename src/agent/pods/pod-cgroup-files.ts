// A pod's cgroup on the host (cgroupfs driver): made with its limits before the sandbox starts,
// so the runtime puts the sandbox and the containers below it, and removed once the pod's
// containers are gone. On cgroup v1 each controller has its own tree (cpu, memory); on v2 one
// unified tree with cpu.weight, cpu.max and memory.max. The levels above the pod (kubepods and
// its QoS classes) are shared by every pod, and by agents of other nodes on the same host in
// tests, so they are made when missing and never removed.

import { existsSync } from 'node:fs';
import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PodCgroupResources } from './pod-cgroups.ts';

/** the v1 controllers a pod cgroup is made in and limited through */
const v1Limited = ['cpu', 'memory'];
/** v1 controllers runc may have made pod-level directories in, to remove with the pod */
const v1All = ['cpu', 'cpuacct', 'cpu,cpuacct', 'memory', 'pids', 'cpuset', 'blkio', 'devices', 'freezer', 'hugetlb', 'net_cls', 'net_prio', 'perf_event', 'systemd', 'rdma', 'misc'];

export interface CgroupFs {
  /** /sys/fs/cgroup, or a test's stand-in */
  root: string;
  v2: boolean;
}

export const hostCgroupFs = (): CgroupFs => ({ root: '/sys/fs/cgroup', v2: existsSync('/sys/fs/cgroup/cgroup.controllers') });

async function write(dir: string, file: string, value: string | number): Promise<void> {
  await writeFile(join(dir, file), String(value));
}

/** v1 shares (2–262144) as a v2 weight (1–10000), as the runtimes convert them */
export const sharesToWeight = (shares: number) => Math.floor(1 + ((shares - 2) * 9999) / 262_142);

export async function ensurePodCgroup(fs: CgroupFs, path: string, r: PodCgroupResources): Promise<void> {
  if (fs.v2) {
    const dir = join(fs.root, path);
    await mkdir(dir, { recursive: true });
    await write(dir, 'cpu.weight', sharesToWeight(r.cpuShares)).catch(() => undefined);
    await write(dir, 'cpu.max', r.cpuQuota ? `${r.cpuQuota} ${r.cpuPeriod}` : 'max').catch(() => undefined);
    await write(dir, 'memory.max', r.memoryLimitBytes ?? 'max').catch(() => undefined);
    return;
  }
  for (const ctl of v1Limited) {
    const dir = join(fs.root, ctl, path);
    await mkdir(dir, { recursive: true });
    if (ctl === 'cpu') {
      await write(dir, 'cpu.shares', r.cpuShares);
      if (r.cpuQuota) { await write(dir, 'cpu.cfs_period_us', r.cpuPeriod ?? 100_000); await write(dir, 'cpu.cfs_quota_us', r.cpuQuota); } else await write(dir, 'cpu.cfs_quota_us', -1);
    } else {
      // lowering a limit below what is in use fails: the runtime's own limits still hold then
      await write(dir, 'memory.limit_in_bytes', r.memoryLimitBytes ?? -1).catch(() => undefined);
    }
  }
}

/** removes the pod's cgroup in every hierarchy (it is empty once the runtime has removed the containers) */
export async function removePodCgroup(fs: CgroupFs, path: string): Promise<void> {
  const dirs = fs.v2 ? [join(fs.root, path)] : v1All.map(ctl => join(fs.root, ctl, path));
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    await rmdir(dir).catch(() => undefined);
  }
}
