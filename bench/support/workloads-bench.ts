// The workload controllers at work, measured from outside: `orch server` (every controller in
// process) with simulated nodes in a process of their own. A 100-replica Deployment from create
// to Available, a Job of 1,000 completions (100 at a time) from create to Complete, each with the
// server's CPU seconds (controllers, scheduler and API together), and the server's CPU while idle
// afterwards with all of it in place. The baseline beside them is the same server's CPU with no
// workload at all, measured first.

import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import { cpuSeconds, node24, repoRoot, rssKiB, startChild } from './processes.ts';

const image = 'registry.local/app:1.0';


async function waitFor(client: Client, path: string, ok: (o: any) => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ok(await client.get(path).catch(() => undefined))) {
    if (performance.now() > deadline) throw new Error(`${path}: not done in ${timeoutMs} ms`);
    await new Promise(r => setTimeout(r, 100));
  }
}

async function idleCpu(pid: number, seconds: number): Promise<number> {
  const c0 = cpuSeconds(pid);
  await new Promise(r => setTimeout(r, seconds * 1000));
  return (cpuSeconds(pid) - c0) / seconds;
}

export interface WorkloadsBench {
  nodes: number;
  emptyIdleCpuPct: number;
  deployment: { replicas: number; ms: number; cpuSeconds: number };
  job: { completions: number; ms: number; cpuSeconds: number };
  idleCpuPct: number;
  serverRssMiB: number;
}

export async function runWorkloadsBench(parent: string, opts: { replicas: number; completions: number; nodes: number }): Promise<WorkloadsBench> {
  const dir = await mkdtemp(join(parent, 'workloads-'));
  const server = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', join(dir, 'orch'), '--port', '0']);
  const pid = server.child.pid!;
  const kubeconfig = join(dir, 'orch', 'admin.kubeconfig');
  const pool = await startChild(node24, [join(repoRoot, 'bench/support/node-pool-process.ts'), kubeconfig, String(opts.nodes), image]);
  const client = createClient(await loadKubeconfig(kubeconfig));
  try {
    await waitFor(client, '/api/v1/nodes', l => l?.items?.filter((n: any) => n.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')).length === opts.nodes, 60_000);
    const emptyIdle = await idleCpu(pid, 10);

    const labels = { app: 'bench' };
    let c0 = cpuSeconds(pid);
    let t0 = performance.now();
    await client.create('/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' },
      spec: { replicas: opts.replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image, command: ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"] }] } } },
    });
    await waitFor(client, '/apis/apps/v1/namespaces/default/deployments/bench', d => d?.status?.availableReplicas === opts.replicas && d.status.conditions?.some((c: any) => c.type === 'Available' && c.status === 'True'), 300_000);
    const deployment = { replicas: opts.replicas, ms: performance.now() - t0, cpuSeconds: cpuSeconds(pid) - c0 };

    c0 = cpuSeconds(pid);
    t0 = performance.now();
    await client.create('/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'bench' },
      spec: { completions: opts.completions, parallelism: 100, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image, command: ['sh', '-c', 'exit 0'] }] } } },
    });
    await waitFor(client, '/apis/batch/v1/namespaces/default/jobs/bench', j => j?.status?.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True'), 600_000);
    const job = { completions: opts.completions, ms: performance.now() - t0, cpuSeconds: cpuSeconds(pid) - c0 };

    const idle = await idleCpu(pid, 10);
    return { nodes: opts.nodes, emptyIdleCpuPct: emptyIdle * 100, deployment, job, idleCpuPct: idle * 100, serverRssMiB: rssKiB(pid) / 1024 };
  } finally {
    client.close();
    await pool.stop();
    await server.stop();
  }
}
