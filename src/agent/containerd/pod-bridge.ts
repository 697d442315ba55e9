// The host side of orch's pod network: the bridge the CNI bridge plugin attaches pods to, made
// before containerd starts rather than on the first pod, so that the gateway address exists from
// the start. Components on the host that pods must reach (the API server behind the `kubernetes`
// Service, cluster DNS) listen on that address: it is this machine's own, reachable from its pods
// and, unlike loopback, routable from their network namespaces.

import { execFile } from 'node:child_process';

const ipBin = '/usr/sbin/ip';

function ip(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => execFile(ipBin, args, (err, stdout, stderr) =>
    err ? reject(new Error(`ip ${args.join(' ')}: ${String(stderr).trim() || err.message}`)) : resolve(String(stdout))));
}

/** the first host address of an IPv4 subnet and its prefix length: the bridge's (gateway's) address */
export function podGateway(subnet: string): { address: string; prefix: number } {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(subnet);
  if (!m) throw new Error(`the pod subnet ${JSON.stringify(subnet)} is not an IPv4 CIDR`);
  const prefix = Number(m[5]);
  if (prefix > 30) throw new Error(`the pod subnet ${subnet} is too small`);
  const base = (m.slice(1, 5).map(Number).reduce((a, b) => a * 256 + b, 0) >>> 0) & (prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0);
  const first = (base + 1) >>> 0;
  return { address: [24, 16, 8, 0].map(s => (first >>> s) & 255).join('.'), prefix };
}

/** makes the bridge with the gateway address, up; leaves one that is already there as it is */
export async function ensurePodBridge(name: string, subnet: string): Promise<string> {
  const { address, prefix } = podGateway(subnet);
  const exists = await ip(['link', 'show', 'dev', name]).then(() => true, () => false);
  if (!exists) await ip(['link', 'add', name, 'type', 'bridge']);
  const addrs = await ip(['-o', '-4', 'addr', 'show', 'dev', name]);
  if (!addrs.includes(` ${address}/${prefix} `)) await ip(['addr', 'add', `${address}/${prefix}`, 'dev', name]);
  await ip(['link', 'set', name, 'up']);
  return address;
}
