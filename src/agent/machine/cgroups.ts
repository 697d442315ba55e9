// The cgroup hierarchy as the running system mounts it, read from /proc/self/mountinfo and the
// cgroup files (never inferred from the kernel version): what is mounted at /sys/fs/cgroup
// decides the mode, as the kubelet decides it from that mount's filesystem type (cgroup2 is the
// unified hierarchy; a tmpfs holding v1 hierarchies is v1, or hybrid with a cgroup2 mount at
// /sys/fs/cgroup/unified), and a controller counts only where a hierarchy offers it.

import type { HostFiles } from './host-files.ts';

export type CgroupMode = 'v2' | 'hybrid' | 'v1' | 'none';

export interface CgroupFacts {
  mode: CgroupMode;
  /** the filesystem type mounted at /sys/fs/cgroup, when mountinfo says */
  fsType?: string;
  /** controllers a pod's cgroups can use: the unified root's cgroup.controllers, or v1's mounted and enabled hierarchies */
  controllers: Set<string>;
  /** a non-root cgroup of the unified hierarchy has cgroup.freeze */
  v2Freeze: boolean;
}

export interface Mount { mountPoint: string; fsType: string; superOptions: string[] }

/** mountinfo lines: "id parent major:minor root mountpoint options [optional…] - fstype source superoptions" */
export function parseMountInfo(text: string): Mount[] {
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    const dash = fields.indexOf('-');
    if (dash < 5 || fields.length < dash + 3) continue;
    // mount points escape spaces and the like as octal (\040)
    const mountPoint = fields[4]!.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
    out.push({ mountPoint, fsType: fields[dash + 1]!, superOptions: (fields[dash + 3] ?? '').split(',').filter(Boolean) });
  }
  return out;
}

/** the mount that holds `path`: the last one mounted exactly there */
const mountAt = (mounts: Mount[], path: string) => mounts.filter(m => m.mountPoint === path).at(-1);

export async function cgroupFacts(files: HostFiles): Promise<CgroupFacts> {
  const mountinfo = await files.read('proc/self/mountinfo');
  const mounts = mountinfo === undefined ? undefined : parseMountInfo(mountinfo);
  const top = mounts && mountAt(mounts, '/sys/fs/cgroup');
  const rootControllers = await files.read('sys/fs/cgroup/cgroup.controllers');
  // without mountinfo (a restricted /proc), the unified root's own file is the sign
  const unified = top ? top.fsType === 'cgroup2' : rootControllers !== undefined;
  if (unified) {
    return { mode: 'v2', fsType: top?.fsType, controllers: words(rootControllers), v2Freeze: await v2Freeze(files) };
  }
  // v1: controllers the kernel has enabled (/proc/cgroups) that a mounted hierarchy offers
  const enabled = new Set(((await files.read('proc/cgroups')) ?? '').split('\n')
    .filter(l => l && !l.startsWith('#')).map(l => l.split(/\s+/)).filter(f => f[3] === '1').map(f => f[0]!));
  const v1Mounts = (mounts ?? []).filter(m => m.fsType === 'cgroup' && m.mountPoint.startsWith('/sys/fs/cgroup/'));
  const mounted = new Set(v1Mounts.flatMap(m => m.superOptions));
  const controllers = new Set([...enabled].filter(c => !mounts || mounted.has(c)));
  if (!top && !mounts) return { mode: enabled.size ? 'v1' : 'none', controllers, v2Freeze: false };
  if (!top && v1Mounts.length === 0) return { mode: 'none', controllers, v2Freeze: false };
  const hybrid = mounts?.some(m => m.mountPoint === '/sys/fs/cgroup/unified' && m.fsType === 'cgroup2') ?? false;
  return { mode: hybrid ? 'hybrid' : 'v1', fsType: top?.fsType, controllers, v2Freeze: false };
}

const words = (text: string | undefined) => new Set((text ?? '').trim().split(/\s+/).filter(Boolean));

/** whether cgroups of the unified hierarchy can be frozen: our own cgroup, or (in the root, as in a container) a child */
async function v2Freeze(files: HostFiles): Promise<boolean> {
  const own = /^0::(\S*)$/m.exec((await files.read('proc/self/cgroup')) ?? '')?.[1] ?? '/';
  if (own !== '/' && (await files.read(`sys/fs/cgroup${own}/cgroup.freeze`)) !== undefined) return true;
  for (const child of await files.list('sys/fs/cgroup')) {
    if ((await files.read(`sys/fs/cgroup/${child}/cgroup.freeze`)) !== undefined) return true;
  }
  return false;
}
