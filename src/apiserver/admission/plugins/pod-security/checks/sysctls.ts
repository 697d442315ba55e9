// Sysctls (baseline): only the namespaced, isolated "safe" set, which grew by version:
// v1.27 ip_local_reserved_ports, v1.29 the TCP keepalive and fin timeouts, v1.32 tcp_rmem/wmem.

import type { Check, CheckFn } from './types.ts';

const safe1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const safe1_27 = [...safe1_0, 'net.ipv4.ip_local_reserved_ports'];
const safe1_29 = [...safe1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const safe1_32 = [...safe1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(safe: readonly string[]): CheckFn {
  const allowed = new Set(safe);
  return (_m, s) => {
    // in the pod's order, repeats included
    const bad = (s.securityContext?.sysctls ?? []).map(x => x.name).filter(n => !allowed.has(n));
    return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
  };
}

export const sysctlChecks: Check[] = [
  { id: 'sysctls', level: 'baseline', versions: [
    { minimumVersion: 0, run: sysctls(safe1_0) },
    { minimumVersion: 27, run: sysctls(safe1_27) },
    { minimumVersion: 29, run: sysctls(safe1_29) },
    { minimumVersion: 32, run: sysctls(safe1_32) },
  ] },
];
