// `orch dns`: cluster DNS as a separate process, against any API server; `orch up` starts the
// same component itself. The zone's names answered from Services and EndpointSlices, the rest
// sent to the host's resolvers.

import { readFile } from 'node:fs/promises';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { startClusterDns } from '../dns/cluster-dns.ts';
import type { PodMode } from '../dns/lookup.ts';
import { parseResolvConf, upstreamServers } from '../dns/resolv-conf.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { flag, signalled, UsageError, type Command, type Flag } from './command.ts';

export const dnsFlags: Record<string, Flag> = {
  'cluster-domain': { type: 'string', default: 'cluster.local', description: 'the zone answered from the cluster\'s Services and pods' },
  'resolv-conf': { type: 'string', default: '/etc/resolv.conf', description: 'names outside the zone go to the nameservers of this file' },
  upstream: { type: 'string', default: '', description: 'servers to forward to instead (host or host:port, comma-separated)' },
  'dns-ttl': { type: 'string', default: '5', description: 'the TTL of the zone\'s records, in seconds' },
  pods: { type: 'string', default: 'insecure', description: 'pod records a-b-c-d.<namespace>.pod.<zone>: insecure (any address), verified (a pod of that namespace has it) or disabled' },
};

/** the component's options from its flags (shared with `orch up`) */
export async function dnsOptions(values: Record<string, string | boolean | undefined>) {
  const zone = String(values['cluster-domain'] ?? 'cluster.local').toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(zone)) throw new UsageError(`invalid --cluster-domain ${JSON.stringify(values['cluster-domain'])}`);
  const ttl = flag(() => { const n = Number(values['dns-ttl'] ?? 5); if (!Number.isInteger(n) || n < 0 || n > 3600) throw new Error(`invalid --dns-ttl ${JSON.stringify(values['dns-ttl'])}`); return n; });
  const podMode = String(values.pods ?? 'insecure') as PodMode;
  if (!['insecure', 'verified', 'disabled'].includes(podMode)) throw new UsageError(`--pods must be insecure, verified or disabled, not ${JSON.stringify(podMode)}`);
  const given = String(values.upstream ?? '').split(',').map(s => s.trim()).filter(Boolean);
  const file = String(values['resolv-conf'] ?? '/etc/resolv.conf');
  const nameservers = given.length ? given : parseResolvConf(await readFile(file, 'utf8').catch(() => '')).nameservers;
  return { zone, ttl, podMode, upstreams: upstreamServers(nameservers) };
}

export const dnsCommand: Command = {
  name: 'dns',
  summary: 'Serve cluster DNS (the zone of Services and pods, as CoreDNS does) against an API server.',
  usage: 'orch dns --kubeconfig FILE [--address 127.0.0.1] [--port 53] [--cluster-domain cluster.local]',
  flags: {
    kubeconfig: kubeconfigFlag,
    address: { type: 'string', default: '127.0.0.1', description: 'the address to listen on (UDP and TCP); a host-internal one, never all interfaces' },
    port: { type: 'string', default: '53', description: 'the port to listen on; 0 picks a free one' },
    ...dnsFlags,
    ...loggingFlags,
  },
  async run(values) {
    const port = flag(() => { const n = Number(values.port); if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid --port ${JSON.stringify(values.port)}`); return n; });
    const address = String(values.address);
    if (address === '0.0.0.0' || address === '::' || address === '') throw new UsageError('--address must name one address of this host, not all of them');
    const opts = await dnsOptions(values);
    const client = await apiClient(values, 'orch-dns');
    const log = loggerFromFlags(values);
    const dns = await startClusterDns({ client, host: address, port, ...opts, log });
    process.stdout.write(`orch dns: serving ${opts.zone} on ${dns.host}:${dns.port} (UDP and TCP)\n`);
    await signalled();
    await dns.stop();
    client.close();
    return 0;
  },
};
