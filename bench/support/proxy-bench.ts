// Service update to rules programmed: an API server in this process holding `services` Services
// with two endpoints each, the service proxy on it writing a real nftables table (no minimum
// interval between syncs), and one Service updated at a time (an externalIP added or taken
// away) while the clock runs from the write to the end of the nft transaction that carries it.
// The raw baseline, in the same run: the same partial scripts' size applied straight through
// `nft -f` to a scratch table (the floor every sync pays: one nft process, one transaction).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/api/log.ts';
import { startServer } from '../../src/apiserver/start.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { applyNft, deleteNftTable, findNft } from '../../src/netfilter/nft.ts';
import { nftPacketFilter } from '../../src/proxy/nft-filter.ts';
import { startProxier, type SyncReport } from '../../src/proxy/proxier.ts';

export interface ProxyBench { services: number; updates: number; p50ms: number; p99ms: number; fullMs: number; scriptLines: number; rawP50ms: number; rawP99ms: number }

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0; };

export function proxyBenchSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (nftables)';
  return findNft() ? undefined : 'nft not installed';
}

export async function runProxyBench(opts: { services: number; updates: number }): Promise<ProxyBench> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-proxy-bench-'));
  const table = `orch-proxy-bench-${process.pid}`;
  const scratch = `orch-proxy-bench-raw-${process.pid}`;
  const server = await startServer({ dataDir: dir, port: 0, bindAddress: '127.0.0.1', log: silentLogger, compactionIntervalMs: 0 });
  const client = createClient(await loadKubeconfig(server.kubeconfigPath));
  let proxier: ReturnType<typeof startProxier> | undefined;
  try {
    const ns = '/api/v1/namespaces/default';
    for (let i = 0; i < opts.services; i++) {
      const name = `svc-${i}`;
      await client.create(`${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }] } });
      await client.create('/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${name}-a`, labels: { 'kubernetes.io/service-name': name } },
        addressType: 'IPv4', ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
        endpoints: [0, 1].map(j => ({ addresses: [`10.42.${Math.floor(i / 120)}.${(i % 120) * 2 + j + 2}`], conditions: { ready: true }, nodeName: 'bench' })),
      });
    }
    // each update waits for the sync whose table holds its externalIP (or no longer does)
    let waiting: { ip: string; present: boolean; done: (r: SyncReport) => void } | undefined;
    const partials: string[] = [];
    proxier = startProxier({
      client, nodeName: 'bench', nodeIPs: ['192.0.2.1'], clusterCIDRs: ['10.42.0.0/16'], filter: nftPacketFilter(), minSyncIntervalMs: 0, table, log: silentLogger,
      onSync: r => {
        if (!r.full && r.scripts.ip) partials.push(r.scripts.ip);
        if (!waiting) return;
        const has = r.rulesets.ip!.sets.get('service-ips')!.elements.some(e => e.startsWith(`${waiting!.ip} `));
        if (has === waiting.present) { const w = waiting; waiting = undefined; w.done(r); }
      },
    });
    const t0 = performance.now();
    await proxier.ready();
    const fullMs = performance.now() - t0;
    const latencies: number[] = [];
    // in pairs on one Service: its externalIP added, then taken away
    for (let u = 0; u < opts.updates; u++) {
      const i = Math.floor(u / 2) % opts.services;
      const ip = `198.51.100.${(Math.floor(u / 2) % 250) + 1}`;
      const present = u % 2 === 0;
      const synced = new Promise<SyncReport>(done => { waiting = { ip, present, done }; });
      const began = performance.now();
      await client.patch(`${ns}/services/svc-${i}`, { spec: { externalIPs: present ? [ip] : null } }, 'application/merge-patch+json');
      await synced;
      latencies.push(performance.now() - began);
    }
    // the raw floor: scripts of the same length straight through nft, to a table of their own
    const lines = Math.round(partials.reduce((n, s) => n + s.split('\n').filter(Boolean).length, 0) / Math.max(1, partials.length));
    await applyNft(`add table ip ${scratch}\nadd chain ip ${scratch} c\n`);
    const raw: number[] = [];
    for (let u = 0; u < latencies.length; u++) {
      const script = [`flush chain ip ${scratch} c`, ...Array.from({ length: Math.max(1, lines - 1) }, (_, j) => `add rule ip ${scratch} c ip daddr 198.51.100.${(j % 250) + 1} tcp dport 80 counter`)].join('\n');
      const began = performance.now();
      await applyNft(`${script}\n`);
      raw.push(performance.now() - began);
    }
    return { services: opts.services, updates: latencies.length, p50ms: pct(latencies, 50), p99ms: pct(latencies, 99), fullMs, scriptLines: lines, rawP50ms: pct(raw, 50), rawP99ms: pct(raw, 99) };
  } finally {
    await proxier?.stop(true);
    await deleteNftTable('ip', scratch).catch(() => undefined);
    await deleteNftTable('ip', table).catch(() => undefined);
    client.close();
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}
