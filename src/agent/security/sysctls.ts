// Pod sysctls: the safe ones (namespaced per pod and harmless to neighbours) are allowed where
// the kernel namespaces them; any other must match the node's allowedUnsafeSysctls, and only
// namespaced groups can be allowed at all. A pod asking for more is rejected before it runs
// (phase Failed, reason SysctlForbidden), as the kubelet's admission does.

import { sysctlKernelProblem, type KernelVersion } from '../machine/kernel.ts';

import type { CoreV1Pod } from '../../schema/generated/types.ts';

export const safeSysctls = [
  'kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes', 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem',
];

/** which namespace a sysctl lives in; undefined: the node's, never settable for one pod */
export function sysctlNamespace(name: string): 'ipc' | 'net' | undefined {
  if (name.startsWith('net.')) return 'net';
  if (['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni'].includes(name) || name.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

const matches = (pattern: string, name: string) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name);

/** Kubernetes accepts sysctl names with '/' as separator too */
const canonical = (name: string) => (name.includes('/') ? name.replace(/\./g, '\u0000').replace(/\//g, '.').replace(/\u0000/g, '/') : name);

export type SysctlAdmission = { admit: true } | { admit: false; reason: string; message: string };

export function admitSysctls(pod: CoreV1Pod, allowedUnsafe: string[], kernel: KernelVersion): SysctlAdmission {
  for (const s of pod.spec?.securityContext?.sysctls ?? []) {
    const name = canonical(s.name);
    const ns = sysctlNamespace(name);
    const deny = (why: string): SysctlAdmission => ({ admit: false, reason: 'SysctlForbidden', message: `forbidden sysctl: ${why}` });
    if (ns === 'net' && pod.spec?.hostNetwork) return deny(`"${name}" not allowed with host net enabled`);
    if (ns === 'ipc' && pod.spec?.hostIPC) return deny(`"${name}" not allowed with host ipc enabled`);
    const kernelProblem = sysctlKernelProblem(name, kernel);
    if (safeSysctls.includes(name) && !kernelProblem) continue;
    if (ns && allowedUnsafe.some(p => matches(p, name))) continue;
    if (kernelProblem && safeSysctls.includes(name)) return deny(`"${name}" not allowlisted: ${kernelProblem}`);
    return deny(`"${name}" not allowlisted`);
  }
  return { admit: true };
}

/** the sysctls for the sandbox, by canonical name */
export function sandboxSysctls(pod: CoreV1Pod): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of pod.spec?.securityContext?.sysctls ?? []) out[canonical(s.name)] = s.value;
  return out;
}
