// Cluster DNS in `orch up`: on the pods' gateway address when orch runs its own containerd (the
// host's address on the pod bridge, reachable from every pod and from nowhere else), else on
// 127.0.0.1; never on all interfaces. The kube-dns Service names it, and the node agent gives
// pods that Service's ClusterIP. A port already taken leaves the cluster without DNS, said so,
// rather than without everything else.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { startClusterDns } from '../dns/cluster-dns.ts';
import { ensureKubeDnsService, kubeDnsClusterIP } from '../dns/kube-dns-service.ts';
import { flag } from './command.ts';
import { dnsOptions } from './dns-command.ts';

export interface UpDns { zone: string; clusterIP: string; stop(): Promise<void> }

export async function startUpDns(values: Record<string, string | boolean | undefined>, client: Client, podGateway: string | undefined, log: Logger, say: (line: string) => void): Promise<UpDns | undefined> {
  const port = flag(() => { const n = Number(values['dns-port']); if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid --dns-port ${JSON.stringify(values['dns-port'])}`); return n; });
  const opts = await dnsOptions(values);
  const host = podGateway ?? '127.0.0.1';
  let dns;
  try {
    dns = await startClusterDns({ client, host, port, ...opts, log: log.with({ component: 'dns' }) });
  } catch (err) {
    process.stderr.write(`Warning: cluster DNS not started on ${host}:${port}: ${(err as Error).message}\n`);
    return undefined;
  }
  try {
    await ensureKubeDnsService(client, dns.host, dns.port);
  } catch (err) {
    process.stderr.write(`Warning: cluster DNS stopped: the kube-dns Service could not be kept: ${(err as Error).message}\n`);
    await dns.stop();
    return undefined;
  }
  say(`cluster DNS: ${opts.zone} on ${dns.host}:${dns.port}, Service kube-system/kube-dns ${kubeDnsClusterIP}`);
  return { zone: opts.zone, clusterIP: kubeDnsClusterIP, stop: () => dns.stop() };
}
