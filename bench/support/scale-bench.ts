// Scale on one machine, against Kubernetes' SLOs: `orch server` (API server, controllers and
// scheduler on SQLite, or three of them on etcd: scale-cluster.ts) and `orch sim-nodes` in a
// process of its own, as KWOK runs beside a cluster. N nodes heartbeat; Deployments of 100 replicas are created at a steady 50 pods/s, then
// one Deployment of B replicas at once. Every pod's start (created → Running) is timed from one
// watch of all pods, as Kubernetes' density test does; API latency p99 per verb comes from the
// server's own apiserver_request_duration_seconds; the list of all pods is timed by the client.

import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import { parsePrometheusText } from '../../test/support/prom-text.ts';
import { cpuSeconds, repoRoot, rssKiB, startChild } from './processes.ts';
import { percentile } from './load.ts';
import { startScaleCluster, type ScaleBackend, type ScaleStore } from './scale-cluster.ts';
import { controllerWrites, leaseStates, type ControllerWrites, type LeaseState } from './scale-leaders.ts';

const image = 'registry.local/app:1.0';

export interface ScaleOptions {
  nodes: number; deployments: number; burst: number; podsPerSecond: number;
  /** after the figures, how long to keep the cluster heartbeating before its database is measured again */
  holdSeconds?: number;
}

export interface ScaleBench {
  nodes: number;
  registerMs: number;
  /** `running` of `pods` started within the bench's limit; the times are theirs */
  steady: { pods: number; running: number; ms: number; p50ms: number; p99ms: number };
  burst: { pods: number; running: number; allRunningMs: number; p50ms: number; p99ms: number };
  /** verb → p99 seconds, from the server's histogram over the whole run */
  verbP99s: Record<string, number>;
  listAllPodsMs: number;
  idleServerCpuPct: number;
  serverRssMiB: number;
  nodesRssMiB: number;
  /** which cluster: 'SQLite, 1 server' or 'etcd, 3 servers' */
  cluster: string;
  /** each server's role, RSS, idle CPU and the controllers' writes that came through it */
  servers: ({ role: string; rssMiB: number; idleCpuPct: number } & ControllerWrites)[];
  leases: LeaseState[];
  /** the database file; etcd's own process beside it */
  store: ScaleStore & { rssMiB?: number; idleCpuPct?: number };
  /** the database once the cluster has been held for `holdSeconds`, and the servers' RSS then */
  held?: { seconds: number; store: ScaleStore; serverRssMiB: number };
}

/**
 * each pod's time from its ADDED event to the first event showing it Running, and which group
 * it belongs to: the bench reads progress from this one watch, never by listing (a list of
 * tens of thousands of pods every moment would be the heaviest load on the server)
 */
function podClock(client: Client) {
  const pods = new Map<string, { group: string; added: number; running?: number }>();
  const handle = client.watch('/api/v1/pods', { resourceVersion: '0' }, e => {
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
    const o = e.object as any;
    const uid = o.metadata.uid as string;
    const now = performance.now();
    let p = pods.get(uid);
    if (!p) pods.set(uid, p = { group: o.metadata.labels?.group ?? '', added: now });
    if (o.status?.phase === 'Running' && p.running === undefined) p.running = now;
  }, () => {});
  return {
    group: (group: string) => [...pods.values()].filter(p => p.group === group),
    stop: () => handle.stop(),
  };
}

type PodTimes = ReturnType<ReturnType<typeof podClock>['group']>;

/** the group's pods once all are Running, or those Running when the time is up (`complete` false) */
async function allRunning(clock: ReturnType<typeof podClock>, group: string, want: number, timeoutMs: number): Promise<{ pods: PodTimes; complete: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const pods = clock.group(group);
    const running = pods.filter(p => p.running !== undefined);
    if (pods.length >= want && running.length === pods.length) return { pods, complete: true };
    if (performance.now() > deadline) return { pods: running, complete: false };
    await new Promise(r => setTimeout(r, 250));
  }
}

/** each pod's start, in ascending order */
const latencies = (pods: PodTimes) => pods.map(p => p.running! - p.added).sort((a, b) => a - b);

const deployment = (name: string, replicas: number, group: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { group } },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name, group } }, spec: { nodeSelector: { 'orch.io/simulated-node': 'true' }, containers: [{ name: 'app', image }] } },
  },
});

/** p99 per verb from the cumulative buckets, over every resource, scope and server (watches excluded) */
function verbP99s(metricsTexts: string[]): Record<string, number> {
  const buckets = new Map<string, Map<number, number>>();
  for (const s of metricsTexts.flatMap(t => parsePrometheusText(t).samples)) {
    if (s.name !== 'apiserver_request_duration_seconds_bucket' || s.labels.verb === 'WATCH' || s.labels.verb === 'CONNECT') continue;
    const byLe = buckets.get(s.labels.verb!) ?? new Map<number, number>();
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byLe.set(le, (byLe.get(le) ?? 0) + s.value);
    buckets.set(s.labels.verb!, byLe);
  }
  const out: Record<string, number> = {};
  for (const [verb, byLe] of buckets) {
    const les = [...byLe.keys()].sort((a, b) => a - b);
    const total = byLe.get(Infinity) ?? 0;
    if (!total) continue;
    out[verb] = les.find(le => byLe.get(le)! >= 0.99 * total) ?? Infinity;
  }
  return out;
}

async function startSimNodes(kubeconfig: string, count: number): Promise<{ pid: number; registerMs: number; stop(): Promise<void> }> {
  const c = await startChild(join(repoRoot, 'bin/orch'), ['sim-nodes', '--kubeconfig', kubeconfig, '--count', String(count)], /registered in (\d+) ms/);
  return { pid: c.child.pid!, registerMs: Number(c.url), stop: c.stop };
}

export async function runScaleBench(parent: string, o: ScaleOptions, say: (line: string) => void, backend: ScaleBackend = 'sqlite'): Promise<ScaleBench> {
  const dir = await mkdtemp(join(parent, 'scale-'));
  const cluster = await startScaleCluster(backend, dir);
  const client = createClient(await loadKubeconfig(cluster.benchKubeconfig));
  const nodes = await startSimNodes(cluster.nodesKubeconfig, o.nodes).catch(async err => { client.close(); await cluster.stop(); throw err; });
  const clock = podClock(client);
  try {
    say(`  ${o.nodes} nodes registered in ${nodes.registerMs} ms; creating ${o.deployments} Deployments of 100 at ${o.podsPerSecond} pods/s`);
    const t0 = performance.now();
    const everyMs = (100 / o.podsPerSecond) * 1000;
    for (let i = 0; i < o.deployments; i++) {
      const due = t0 + i * everyMs;
      if (due > performance.now()) await new Promise(r => setTimeout(r, due - performance.now()));
      await client.create('/apis/apps/v1/namespaces/default/deployments', deployment(`steady-${i}`, 100, 'steady'));
    }
    const steady = await allRunning(clock, 'steady', o.deployments * 100, 1_800_000);
    const steadyMs = performance.now() - t0;
    const steadyLat = latencies(steady.pods);
    say(`  steady: ${steady.pods.length} pods Running ${(steadyMs / 1000).toFixed(0)} s after the first create${steady.complete ? '' : ' (the limit)'}; start p50 ${(percentile(steadyLat, 50) / 1000).toFixed(2)} s, p99 ${(percentile(steadyLat, 99) / 1000).toFixed(2)} s; burst of ${o.burst}`);

    const b0 = performance.now();
    await client.create('/apis/apps/v1/namespaces/default/deployments', deployment('burst', o.burst, 'burst'));
    const burst = await allRunning(clock, 'burst', o.burst, 300_000);
    const allRunningMs = burst.complete ? Math.max(...burst.pods.map(p => p.running!)) - b0 : performance.now() - b0;
    const burstLat = latencies(burst.pods);
    say(`  burst: ${burst.pods.length} of ${o.burst} Running ${(allRunningMs / 1000).toFixed(1)} s after the create; p50 ${(percentile(burstLat, 50) / 1000).toFixed(2)} s, p99 ${(percentile(burstLat, 99) / 1000).toFixed(2)} s`);

    const l0 = performance.now();
    await client.list('/api/v1/pods');
    const listAllPodsMs = performance.now() - l0;
    say(`  list of all pods ${(listAllPodsMs / 1000).toFixed(2)} s`);

    const storePid = cluster.storePid;
    const c0 = cluster.servers.map(s => cpuSeconds(s.pid)), e0 = storePid ? cpuSeconds(storePid) : 0;
    await new Promise(r => setTimeout(r, 20_000));
    const idleCpuPcts = cluster.servers.map((s, i) => (cpuSeconds(s.pid) - c0[i]!) / 20 * 100);
    const idleServerCpuPct = idleCpuPcts.reduce((a, b) => a + b, 0);
    const metrics = await Promise.all(cluster.servers.map(s => s.client.request<string>('GET', '/metrics', undefined, { headers: { accept: 'text/plain' } }).then(String)));
    const servers = cluster.servers.map((s, i) => ({ role: s.role, rssMiB: rssKiB(s.pid) / 1024, idleCpuPct: idleCpuPcts[i]!, ...controllerWrites(metrics[i]!) }));
    const store = { ...await cluster.store(), ...(storePid ? { rssMiB: rssKiB(storePid) / 1024, idleCpuPct: (cpuSeconds(storePid) - e0) / 20 * 100 } : {}) };
    const leases = await leaseStates(client);
    let held: ScaleBench['held'];
    if (o.holdSeconds) {
      const serversRss = () => cluster.servers.reduce((sum, s) => sum + rssKiB(s.pid) / 1024, 0);
      const h0 = performance.now();
      for (let left = o.holdSeconds; left > 0; left -= 300) {
        await new Promise(r => setTimeout(r, Math.min(left, 300) * 1000));
        say(`  held ${((performance.now() - h0) / 60000).toFixed(0)} min: ${(await cluster.store()).MiB.toFixed(0)} MiB stored, servers' RSS ${serversRss().toFixed(0)} MiB`);
      }
      held = { seconds: o.holdSeconds, store: await cluster.store(), serverRssMiB: serversRss() };
    }
    return {
      nodes: o.nodes, registerMs: nodes.registerMs,
      steady: { pods: o.deployments * 100, running: steady.pods.length, ms: steadyMs, p50ms: percentile(steadyLat, 50), p99ms: percentile(steadyLat, 99) },
      burst: { pods: o.burst, running: burst.pods.length, allRunningMs, p50ms: percentile(burstLat, 50), p99ms: percentile(burstLat, 99) },
      verbP99s: verbP99s(metrics), listAllPodsMs, idleServerCpuPct,
      serverRssMiB: servers.reduce((sum, s) => sum + s.rssMiB, 0), nodesRssMiB: rssKiB(nodes.pid) / 1024,
      cluster: cluster.label, servers, leases, store, held,
    };
  } finally {
    clock.stop();
    client.close();
    await nodes.stop();
    await cluster.stop();
  }
}
