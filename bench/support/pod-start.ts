// Pod start latency: a fresh `orch server` (scheduler in-process) and 20 simulated nodes (real
// agents on `orch runtime-sim`, together in one other process); pods are created 32 at a time and each one's
// time from its create request to the watch showing it Running is recorded. The raw baseline
// is the same sandbox + container start asked of one simulated runtime directly over the CRI.
// The API server's CPU time and peak RSS during the run are read from /proc.

import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { connectCri } from '../../src/agent/cri/client.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startRuntimeSim } from '../../src/runtime-sim/server.ts';
import { cpuSeconds, node24, repoRoot, rssKiB, startChild } from './processes.ts';

export interface PodStartResult {
  pods: number;
  nodes: number;
  /** from the first create request to the last create answered */
  createMs: number;
  p50ms: number;
  p99ms: number;
  maxms: number;
  totalMs: number;
  rawP50ms: number;
  rawP99ms: number;
  /** create to spec.nodeName seen */
  boundP50ms: number;
  boundP99ms: number;
  serverCpuSeconds: number;
  serverPeakRssMiB: number;
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0; };


const image = 'registry.local/app:1.0';

async function rawBaseline(dir: string, n: number): Promise<number[]> {
  const sim = await startRuntimeSim({ socket: join(dir, 'raw-cri.sock'), preloadedImages: [image] });
  const cri = await connectCri(sim.endpoint);
  const out: number[] = [];
  try {
    let next = 0;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        const meta = { name: `raw-${i}`, namespace: 'default', uid: `raw-${i}`, attempt: 0 };
        const sb = { metadata: meta, logDirectory: join(dir, 'raw-logs', `${i}`), linux: {} };
        const { podSandboxId } = await cri.runPodSandbox({ config: sb });
        const { containerId } = await cri.createContainer({ podSandboxId, config: { metadata: { name: 'app', attempt: 0 }, image: { image }, command: ['sh', '-c', 'while true; do sleep 1; done'], logPath: 'app/0.log', linux: {} }, sandboxConfig: sb });
        await cri.startContainer({ containerId });
        out.push(performance.now() - t0);
      }
    }));
  } finally {
    cri.close();
    await sim.stop();
  }
  return out;
}

export async function runPodStartBench(parent: string, opts: { pods: number; nodes: number; perSecond?: number }): Promise<PodStartResult> {
  // each run on a cluster of its own: a fresh data directory, runtime sockets and logs
  const dir = await mkdtemp(join(parent, 'pod-start-'));
  const raw = await rawBaseline(dir, opts.pods);
  const server = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', join(dir, 'pods-orch'), '--port', '0']);
  const pid = server.child.pid!;
  const kubeconfig = join(dir, 'pods-orch', 'admin.kubeconfig');
  const pool = await startChild(node24, [join(repoRoot, 'bench/support/node-pool-process.ts'), kubeconfig, String(opts.nodes), image]);
  const client = createClient(await loadKubeconfig(kubeconfig));
  try {
    for (;;) {
      const nodes = (await client.list('/api/v1/nodes')) as any;
      if (nodes.items.filter((n: any) => n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')).length === opts.nodes) break;
      await new Promise(r => setTimeout(r, 200));
    }
    const createdAt = new Map<string, number>();
    const latency = new Map<string, number>();
    const boundAt = new Map<string, number>();
    let allRunning: () => void = () => {};
    const done = new Promise<void>(r => { allRunning = r; });
    const watch = client.watch('/api/v1/namespaces/default/pods', {}, ev => {
      const p = ev.object as any;
      const t0 = createdAt.get(p?.metadata?.name);
      if (t0 !== undefined && p.spec?.nodeName && !boundAt.has(p.metadata.name)) boundAt.set(p.metadata.name, performance.now() - t0);
      if (t0 === undefined || latency.has(p.metadata.name) || p.status?.phase !== 'Running') return;
      latency.set(p.metadata.name, performance.now() - t0);
      if (latency.size === opts.pods) allRunning();
    }, () => undefined);
    await new Promise(r => setTimeout(r, 300));
    const cpu0 = cpuSeconds(pid);
    let peak = rssKiB(pid);
    const sampler = setInterval(() => { peak = Math.max(peak, rssKiB(pid)); }, 100);
    const start = performance.now();
    const create = async (name: string) => {
      createdAt.set(name, performance.now());
      await client.create('/api/v1/namespaces/default/pods', { metadata: { name }, spec: { containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'while true; do sleep 1; done'], resources: { requests: { cpu: '10m', memory: '16Mi' } } }] } });
    };
    if (opts.perSecond) {
      // paced: each pod is created on its own schedule, whatever the others are doing
      await Promise.all(Array.from({ length: opts.pods }, (_, i) => new Promise<void>((resolve, reject) => {
        setTimeout(() => create(`app-${i}`).then(resolve, reject), (i * 1000) / opts.perSecond!);
      })));
    } else {
      let next = 0;
      await Promise.all(Array.from({ length: 32 }, async () => { while (next < opts.pods) await create(`app-${next++}`); }));
    }
    const createMs = performance.now() - start;
    await Promise.race([done, new Promise((_, rej) => setTimeout(() => rej(new Error(`only ${latency.size}/${opts.pods} pods Running after 5 minutes`)), 300_000))]);
    const totalMs = performance.now() - start;
    clearInterval(sampler);
    watch.stop();
    const xs = [...latency.values()];
    return {
      pods: opts.pods, nodes: opts.nodes, createMs, p50ms: pct(xs, 50), p99ms: pct(xs, 99), maxms: Math.max(...xs), totalMs,
      rawP50ms: pct(raw, 50), rawP99ms: pct(raw, 99), boundP50ms: pct([...boundAt.values()], 50), boundP99ms: pct([...boundAt.values()], 99),
      serverCpuSeconds: cpuSeconds(pid) - cpu0, serverPeakRssMiB: peak / 1024,
    };
  } finally {
    client.close();
    await pool.stop();
    await server.stop();
  }
}
