// Pod start on one node, real containerd beside the simulated runtime: `orch server`, one
// `orch agent` on each runtime in turn (a private containerd with a local busybox image, or
// `orch runtime-sim`), pods created a few at a time and each one's time from its create request
// to the watch showing it Running recorded. The raw baseline per runtime is the same sandbox +
// container start asked of it directly over the CRI. Needs root, containerd, runc, the CNI
// plugins and busybox-static; without them the containerd row says why it is missing.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { connectCri } from '../../src/agent/cri/client.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { containerdSkipReason, startContainerd } from '../../test/support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../../test/support/oci-image.ts';
import { startAgentProcess } from '../../test/e2e/support/agent-process.ts';
import { repoRoot, startChild } from './processes.ts';

export interface RuntimePodStart { runtime: string; pods: number; p50ms: number; p99ms: number; rawP50ms: number; rawP99ms: number }

const image = 'docker.io/library/busybox:1.36';
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0; };

async function rawStarts(endpoint: string, dir: string, n: number, parallel: number): Promise<number[]> {
  const cri = await connectCri(endpoint);
  const out: number[] = [];
  const made: string[] = [];
  try {
    let next = 0;
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        const sb = { metadata: { name: `raw-${i}`, namespace: 'default', uid: `raw-${i}`, attempt: 0 }, logDirectory: join(dir, 'raw-logs', `${i}`), linux: {} };
        const { podSandboxId } = await cri.runPodSandbox({ config: sb });
        made.push(podSandboxId);
        const { containerId } = await cri.createContainer({ podSandboxId, config: { metadata: { name: 'app', attempt: 0 }, image: { image }, command: ['sleep', '3600'], logPath: 'app/0.log', linux: {} }, sandboxConfig: sb });
        await cri.startContainer({ containerId });
        out.push(performance.now() - t0);
      }
    }));
    for (const id of made) { await cri.stopPodSandbox({ podSandboxId: id }).catch(() => undefined); await cri.removePodSandbox({ podSandboxId: id }).catch(() => undefined); }
  } finally {
    cri.close();
  }
  return out;
}

async function agentStarts(endpoint: string, dir: string, n: number, parallel: number): Promise<number[]> {
  const server = await startChild(join(repoRoot, 'bin/orch'), ['server', '--data-dir', join(dir, 'orch'), '--port', '0']);
  const kubeconfig = join(dir, 'orch', 'admin.kubeconfig');
  const node = 'bench-node';
  const agent = await startAgentProcess({ kubeconfig, args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', endpoint], config: { podLogsDir: join(dir, 'logs'), nodeStatusUpdateFrequency: '1s' } });
  const client = createClient(await loadKubeconfig(kubeconfig));
  try {
    for (;;) {
      const nodes = (await client.list('/api/v1/nodes')) as any;
      if (nodes.items.some((x: any) => x.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'))) break;
      await new Promise(r => setTimeout(r, 200));
    }
    const createdAt = new Map<string, number>();
    const latency = new Map<string, number>();
    let allRunning: () => void = () => {};
    const done = new Promise<void>(r => { allRunning = r; });
    const watch = client.watch('/api/v1/namespaces/default/pods', {}, ev => {
      const p = ev.object as any;
      const t0 = createdAt.get(p?.metadata?.name);
      if (t0 === undefined || latency.has(p.metadata.name) || p.status?.phase !== 'Running') return;
      latency.set(p.metadata.name, performance.now() - t0);
      if (latency.size === n) allRunning();
    }, () => undefined);
    await new Promise(r => setTimeout(r, 300));
    let next = 0;
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next < n) {
        const name = `app-${next++}`;
        createdAt.set(name, performance.now());
        await client.create('/api/v1/namespaces/default/pods', { metadata: { name }, spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'] }] } });
        // the next pod of this lane once this one runs: a steady trickle, not a flood
        while (!latency.has(name)) await new Promise(r => setTimeout(r, 20));
      }
    }));
    await Promise.race([done, new Promise((_, rej) => setTimeout(() => rej(new Error(`only ${latency.size}/${n} pods Running after 3 minutes`)), 180_000))]);
    watch.stop();
    await client.deleteCollection('/api/v1/namespaces/default/pods').catch(() => undefined);
    return [...latency.values()];
  } finally {
    client.close();
    await agent.stop();
    await agent.cleanup();
    await server.stop();
  }
}

async function simRuntime(dir: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const socket = join(dir, 'sim.sock');
  const child = spawn(join(repoRoot, 'bin/orch'), ['runtime-sim', '--socket', socket, '--preload-images', image], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise(r => setTimeout(r, 50));
  return { endpoint: `unix://${socket}`, stop: async () => { child.kill('SIGTERM'); await new Promise(r => child.once('exit', r)); } };
}

export function containerdBenchSkipReason(): string | undefined {
  return containerdSkipReason() ?? busyboxSkipReason();
}

export async function runRuntimePodStart(parent: string, opts: { pods: number; parallel: number }): Promise<RuntimePodStart[]> {
  const out: RuntimePodStart[] = [];
  const measure = async (runtime: string, endpoint: string) => {
    const dir = await mkdtemp(join(parent, `pod-start-${runtime}-`));
    const raw = await rawStarts(endpoint, dir, opts.pods, opts.parallel);
    const xs = await agentStarts(endpoint, dir, opts.pods, opts.parallel);
    out.push({ runtime, pods: opts.pods, p50ms: pct(xs, 50), p99ms: pct(xs, 99), rawP50ms: pct(raw, 50), rawP99ms: pct(raw, 99) });
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  };
  const simDir = await mkdtemp(join(parent, 'sim-'));
  const sim = await simRuntime(simDir);
  try { await measure('runtime-sim', sim.endpoint); } finally { await sim.stop(); }
  if (!containerdBenchSkipReason()) {
    const containerd = await startContainerd();
    try {
      await importBusyboxImage(containerd, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
      await measure('containerd', containerd.endpoint);
    } finally { await containerd.stop(); }
  }
  return out;
}
