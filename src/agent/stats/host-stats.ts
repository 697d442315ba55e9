// The node's own counters that the Summary API's node section reports and no runtime knows:
// cumulative CPU time, network traffic per interface, and the processes running.

import type { HostFiles } from '../machine/host-files.ts';

/** USER_HZ: /proc/stat counts in hundredths of a second on every Linux architecture we run on */
const jiffyNs = 1e7;

/**
 * CPU time the node spent, in nanoseconds: the root cpuacct cgroup's counter where there is one
 * (what the kubelet reads through cAdvisor), else cgroup v2's usage_usec, else /proc/stat's
 * busy jiffies (everything but idle and iowait).
 */
export async function nodeCpuUsageNs(files: HostFiles): Promise<number> {
  for (const p of ['sys/fs/cgroup/cpuacct/cpuacct.usage', 'sys/fs/cgroup/cpu,cpuacct/cpuacct.usage']) {
    const v = Number((await files.read(p))?.trim());
    if (v > 0) return v;
  }
  const v2 = /^usage_usec (\d+)$/m.exec((await files.read('sys/fs/cgroup/cpu.stat')) ?? '');
  if (v2 && Number(v2[1]) > 0) return Number(v2[1]) * 1000;
  const cpu = /^cpu\s+(.*)$/m.exec((await files.read('proc/stat')) ?? '');
  if (!cpu) return 0;
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  const f = cpu[1]!.trim().split(/\s+/).map(Number);
  const busy = (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0) + (f[7] ?? 0);
  return busy * jiffyNs;
}

export interface InterfaceStats {
  name: string;
  rxBytes: number;
  rxErrors: number;
  txBytes: number;
  txErrors: number;
}

/** /proc/net/dev (the host's, or a process's network namespace's), loopback left out */
export function parseNetDev(text: string | undefined): InterfaceStats[] {
  const out: InterfaceStats[] = [];
  for (const line of (text ?? '').split('\n').slice(2)) {
    const m = /^\s*([^:]+):\s*(.*)$/.exec(line);
    if (!m || m[1] === 'lo') continue;
    const f = m[2]!.trim().split(/\s+/).map(Number);
    out.push({ name: m[1]!, rxBytes: f[0] ?? 0, rxErrors: f[2] ?? 0, txBytes: f[8] ?? 0, txErrors: f[10] ?? 0 });
  }
  return out;
}
