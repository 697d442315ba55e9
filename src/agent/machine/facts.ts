// What a node is: identity, operating system, and the resources it has. Read once at start
// (and again when the agent reports status, for the parts that can change, like addresses).

import * as os from 'node:os';
import { parseKbTable, type HostFiles } from './host-files.ts';

export interface MachineFacts {
  hostname: string;
  kernelVersion: string;
  osImage: string;
  operatingSystem: string;
  /** Go's names, as Kubernetes reports them: amd64, arm64, ... */
  architecture: string;
  machineID: string;
  systemUUID: string;
  bootID: string;
  cpus: number;
  memoryBytes: number;
  /** hugepage size ("2Mi", "1Gi") → bytes reserved as hugepages of that size */
  hugepages: Record<string, number>;
  swapBytes: number;
  /** the highest process id the kernel hands out, the node's PID capacity */
  pidMax: number;
}

const goArch: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };

/** "2048kB" directory suffixes of /sys/kernel/mm/hugepages as Kubernetes' resource suffix ("2Mi") */
export function hugepageSizeName(kb: number): string {
  if (kb % (1024 * 1024) === 0) return `${kb / (1024 * 1024)}Gi`;
  if (kb % 1024 === 0) return `${kb / 1024}Mi`;
  return `${kb}Ki`;
}

function osRelease(text: string | undefined): string {
  const m = /^PRETTY_NAME=(.*)$/m.exec(text ?? '');
  return m ? m[1]!.trim().replace(/^"(.*)"$/, '$1') : 'Linux';
}

async function hugepages(files: HostFiles): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const dir of await files.list('sys/kernel/mm/hugepages')) {
    const m = /^hugepages-(\d+)kB$/.exec(dir);
    if (!m) continue;
    const count = Number((await files.read(`sys/kernel/mm/hugepages/${dir}/nr_hugepages`))?.trim() ?? 0);
    out[hugepageSizeName(Number(m[1]))] = count * Number(m[1]) * 1024;
  }
  return out;
}

export async function readMachineFacts(files: HostFiles, hostnameOverride?: string): Promise<MachineFacts> {
  const meminfo = parseKbTable(await files.read('proc/meminfo'));
  const trimmed = async (p: string) => (await files.read(p))?.trim() ?? '';
  const machineID = (await trimmed('etc/machine-id')) || (await trimmed('var/lib/dbus/machine-id'));
  return {
    // Kubernetes lowercases the node name it derives from the hostname
    hostname: (hostnameOverride || os.hostname()).trim().toLowerCase(),
    kernelVersion: (await trimmed('proc/sys/kernel/osrelease')) || os.release(),
    osImage: osRelease(await files.read('etc/os-release')),
    operatingSystem: os.platform(),
    architecture: goArch[os.arch()] ?? os.arch(),
    machineID,
    systemUUID: (await trimmed('sys/class/dmi/id/product_uuid')).toLowerCase() || machineID,
    bootID: await trimmed('proc/sys/kernel/random/boot_id'),
    cpus: os.cpus().length || os.availableParallelism(),
    memoryBytes: meminfo.get('MemTotal') ?? os.totalmem(),
    hugepages: await hugepages(files),
    swapBytes: meminfo.get('SwapTotal') ?? 0,
    pidMax: Number(await trimmed('proc/sys/kernel/pid_max')) || 32768,
  };
}
