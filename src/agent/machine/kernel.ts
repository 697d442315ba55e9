// The kernel features the spec's table names, and which of them this system has: probed where
// the running system can tell (the cgroup mount and its controllers, PSI files, sysctl files,
// user namespaces), by kernel version only where nothing else can. Sysctls that became
// namespaced (and so safe for pods) in a given kernel are checked here too, so a pod asking for
// one the kernel lacks can be refused with a reason.

import { cgroupFacts } from './cgroups.ts';
import type { HostFiles } from './host-files.ts';

export type KernelVersion = [number, number, number];

/** "6.18.44-fc-v445" → [6, 18, 44]; unparseable parts read as 0 */
export function parseKernelVersion(release: string): KernelVersion {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(release.trim());
  return [Number(m?.[1] ?? 0), Number(m?.[2] ?? 0), Number(m?.[3] ?? 0)];
}

export function atLeast(have: KernelVersion, want: KernelVersion): boolean {
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i]! > want[i]!;
  return true;
}

/** sysctls that need at least this kernel to be namespaced */
export const sysctlMinKernel: Record<string, KernelVersion> = {
  'net.ipv4.ip_local_reserved_ports': [3, 16, 0],
  'net.ipv4.tcp_keepalive_time': [4, 5, 0],
  'net.ipv4.tcp_keepalive_intvl': [4, 5, 0],
  'net.ipv4.tcp_keepalive_probes': [4, 5, 0],
  'net.ipv4.tcp_fin_timeout': [4, 6, 0],
  'net.ipv4.tcp_syncookies': [4, 6, 0],
  'net.ipv4.tcp_rmem': [4, 15, 0],
  'net.ipv4.tcp_wmem': [4, 15, 0],
  'net.ipv4.vs.conn_reuse_mode': [4, 1, 0],
};

/** why a sysctl cannot be used on this kernel, or undefined when it can */
export function sysctlKernelProblem(name: string, kernel: KernelVersion): string | undefined {
  const want = sysctlMinKernel[name];
  if (!want || atLeast(kernel, want)) return undefined;
  return `sysctl "${name}" requires kernel ${want.slice(0, 2).join('.')} or later (this node runs ${kernel.join('.')})`;
}

export interface KernelFeature {
  feature: string;
  requirement: string;
  supported: boolean;
  /** what the running system showed, where it was looked at */
  observed?: string;
}

/** features only a kernel version can tell here (the runtime or a proxy probes them itself) */
const versioned: Array<[string, KernelVersion]> = [
  ['nftables proxy mode', [5, 13, 0]],
  ['recursive read-only mounts', [5, 12, 0]],
  ['tmpfs noswap for node swap', [6, 3, 0]],
];

export async function kernelFeatures(release: string, files: HostFiles): Promise<KernelFeature[]> {
  const kernel = parseKernelVersion(release);
  const v = (want: KernelVersion) => `kernel ${want[0]}.${want[1]}+`;
  const out: KernelFeature[] = [];
  // a sysctl the kernel namespaces is usable only where its file exists (ip_vs's only with the module loaded)
  for (const [name, want] of Object.entries(sysctlMinKernel)) {
    const present = (await files.read(`proc/sys/${name.replaceAll('.', '/')}`)) !== undefined;
    out.push({ feature: `sysctl ${name}`, requirement: `${v(want)} and /proc/sys/${name.replaceAll('.', '/')}`, supported: atLeast(kernel, want) && present, observed: present ? 'present' : 'absent' });
  }
  for (const [feature, want] of versioned) out.push({ feature, requirement: `${v(want)} (by version)`, supported: atLeast(kernel, want) });
  const userns = Number((await files.read('proc/sys/user/max_user_namespaces'))?.trim() ?? 0);
  out.push({ feature: 'pod user namespaces', requirement: 'kernel 6.5+ and user.max_user_namespaces above 0', supported: atLeast(kernel, [6, 5, 0]) && userns > 0, observed: `max_user_namespaces ${userns}` });
  // what the running system mounts, not what its kernel version could have
  const cgroup = await cgroupFacts(files);
  const seen = `${cgroup.fsType ?? 'nothing'} at /sys/fs/cgroup, ${cgroup.mode === 'none' ? 'no hierarchy' : `cgroup ${cgroup.mode}`}`;
  out.push({ feature: 'cgroup v2', requirement: 'cgroup2 mounted at /sys/fs/cgroup', supported: cgroup.mode === 'v2', observed: seen });
  out.push({ feature: 'cgroup v2 freezer', requirement: 'kernel 5.2+ and cgroup.freeze in the unified hierarchy at /sys/fs/cgroup', supported: cgroup.mode === 'v2' && atLeast(kernel, [5, 2, 0]) && cgroup.v2Freeze, observed: seen });
  for (const c of ['cpu', 'cpuset', 'memory', 'pids', 'hugetlb', 'io']) {
    const name = c === 'io' && cgroup.mode !== 'v2' ? 'blkio' : c;
    out.push({ feature: `cgroup controller ${c}`, requirement: cgroup.mode === 'v2' ? 'listed in /sys/fs/cgroup/cgroup.controllers' : `${name} enabled in /proc/cgroups and mounted under /sys/fs/cgroup`, supported: cgroup.controllers.has(name) });
  }
  // the files exist but cannot be read where the kernel has PSI built in but off (psi=0)
  const psi = atLeast(kernel, [4, 20, 0]) && (await files.read('proc/pressure/memory')) !== undefined;
  out.push({ feature: 'pressure stall information', requirement: 'kernel 4.20+ with CONFIG_PSI=y (psi=1): /proc/pressure/memory readable', supported: psi });
  return out;
}
