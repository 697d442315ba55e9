// Pods on one node talk across the CNI bridge, at layer 2: their packets reach the inet family's
// forward hook only when br_netfilter is loaded and net.bridge.bridge-nf-call-iptables (and
// -ip6tables) is 1, as kube-proxy and every bridge-based CNI also require. Without it traffic
// between two pods of this node would pass unfiltered, so the enforcer makes sure of it first.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

const sysctlDir = '/proc/sys/net/bridge';
const modprobe = ['/usr/sbin/modprobe', '/sbin/modprobe'].find(p => existsSync(p));

/** loads br_netfilter when needed and turns the calls on; resolves to what it changed, throws what it could not */
export async function ensureBridgeNetfilter(): Promise<string[]> {
  const changed: string[] = [];
  if (!existsSync(sysctlDir)) {
    if (!modprobe) throw new Error('br_netfilter is not loaded and there is no modprobe to load it: traffic between pods of this node cannot be filtered');
    await new Promise<void>((resolve, reject) => execFile(modprobe, ['br_netfilter'], err => (err ? reject(new Error(`modprobe br_netfilter: ${err.message}`)) : resolve())));
    changed.push('loaded br_netfilter');
  }
  for (const name of ['bridge-nf-call-iptables', 'bridge-nf-call-ip6tables']) {
    const path = `${sysctlDir}/${name}`;
    if ((await readFile(path, 'utf8')).trim() === '1') continue;
    await writeFile(path, '1\n');
    changed.push(`net.bridge.${name} = 1`);
  }
  return changed;
}
