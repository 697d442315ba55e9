// The addresses a node reports: its hostname, and the address other nodes reach it on. With
// --node-ip that address is given; otherwise the first address of a non-loopback interface,
// IPv4 before IPv6 as Kubernetes prefers. There is no cloud provider to tell us an ExternalIP,
// so one is reported only when given.

import { networkInterfaces } from 'node:os';

export interface NodeAddress { type: 'Hostname' | 'InternalIP' | 'ExternalIP'; address: string }

export interface AddressOptions {
  hostname: string;
  nodeIPs?: string[];
  externalIPs?: string[];
  interfaces?: ReturnType<typeof networkInterfaces>;
}

export function hostAddresses(interfaces = networkInterfaces()): string[] {
  const all = Object.values(interfaces).flatMap(list => list ?? []).filter(a => !a.internal && !(a.family === 'IPv6' && a.address.startsWith('fe80')));
  return [...all.filter(a => a.family === 'IPv4'), ...all.filter(a => a.family === 'IPv6')].map(a => a.address);
}

export function nodeAddresses(opts: AddressOptions): NodeAddress[] {
  const internal = opts.nodeIPs?.length ? opts.nodeIPs : hostAddresses(opts.interfaces).slice(0, 1);
  return [
    ...internal.map(address => ({ type: 'InternalIP' as const, address })),
    ...(opts.externalIPs ?? []).map(address => ({ type: 'ExternalIP' as const, address })),
    { type: 'Hostname', address: opts.hostname },
  ];
}
