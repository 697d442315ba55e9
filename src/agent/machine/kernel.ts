// The kernel features the spec's table ties to kernel versions, and which of them this kernel
// has. Sysctls that became namespaced (and so safe for pods) in a given kernel are checked here
// too, so a pod asking for one the kernel lacks can be refused with a reason.

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
}

const versioned: Array<[string, KernelVersion]> = [
  ['nftables proxy mode', [5, 13, 0]],
  ['recursive read-only mounts', [5, 12, 0]],
  ['pod user namespaces', [6, 5, 0]],
  ['tmpfs noswap for node swap', [6, 3, 0]],
];

export async function kernelFeatures(release: string, files: HostFiles): Promise<KernelFeature[]> {
  const kernel = parseKernelVersion(release);
  const v = (want: KernelVersion) => `kernel ${want[0]}.${want[1]}+`;
  const out: KernelFeature[] = Object.entries(sysctlMinKernel).map(([name, want]) => ({ feature: `sysctl ${name}`, requirement: v(want), supported: atLeast(kernel, want) }));
  for (const [feature, want] of versioned) out.push({ feature, requirement: v(want), supported: atLeast(kernel, want) });
  // what the running system has, not what its kernel version could have: a unified hierarchy
  // mounted at the top has cgroup.controllers there (a v1 or hybrid host does not)
  const cgroup = await cgroupFacts(files);
  out.push({ feature: 'cgroup v2', requirement: 'unified hierarchy at /sys/fs/cgroup', supported: cgroup.v2 });
  out.push({ feature: 'cgroup v2 freezer', requirement: 'kernel 5.2+ and cgroup.freeze in the unified hierarchy at /sys/fs/cgroup', supported: cgroup.v2 && atLeast(kernel, [5, 2, 0]) && cgroup.freeze });
  for (const c of ['cpu', 'cpuset', 'memory', 'pids', 'hugetlb', 'io']) {
    out.push({ feature: `cgroup controller ${c}`, requirement: cgroup.v2 ? 'listed in /sys/fs/cgroup/cgroup.controllers' : 'enabled in /proc/cgroups', supported: cgroup.controllers.has(c === 'io' && !cgroup.v2 ? 'blkio' : c) });
  }
  const psi = atLeast(kernel, [4, 20, 0]) && (await files.read('proc/pressure/memory')) !== undefined;
  out.push({ feature: 'pressure stall information', requirement: 'kernel 4.20+ with CONFIG_PSI=y (psi=1)', supported: psi });
  return out;
}

interface CgroupFacts {
  v2: boolean;
  /** a non-root cgroup of the unified hierarchy has cgroup.freeze */
  freeze: boolean;
  controllers: Set<string>;
}

/** the cgroup hierarchy as mounted: v2 or v1, its controllers, and whether v2 cgroups can freeze */
async function cgroupFacts(files: HostFiles): Promise<CgroupFacts> {
  const unified = await files.read('sys/fs/cgroup/cgroup.controllers');
  if (unified !== undefined) {
    // our own cgroup (0::/path); the root cgroup has no freeze file, so a child is looked at then
    const own = /^0::(\S*)$/m.exec((await files.read('proc/self/cgroup')) ?? '')?.[1] ?? '/';
    let freeze = own !== '/' && (await files.read(`sys/fs/cgroup${own}/cgroup.freeze`)) !== undefined;
    if (!freeze) {
      for (const child of await files.list('sys/fs/cgroup')) {
        if ((await files.read(`sys/fs/cgroup/${child}/cgroup.freeze`)) !== undefined) { freeze = true; break; }
      }
    }
    return { v2: true, freeze, controllers: new Set(unified.trim().split(/\s+/).filter(Boolean)) };
  }
  // v1: "name hierarchy num_cgroups enabled" per line
  const enabled = ((await files.read('proc/cgroups')) ?? '').split('\n')
    .filter(l => l && !l.startsWith('#')).map(l => l.split(/\s+/)).filter(f => f[3] === '1').map(f => f[0]!);
  return { v2: false, freeze: false, controllers: new Set(enabled) };
}
