// The runtimes a pod-behaviour suite runs on, behind one shape: real containerd (a private one,
// with the local busybox image) and the simulated runtime (`orch runtime-sim`, a real child
// process), each with `orch server` and a real `orch agent` process over it. A case written once
// runs on both, so where the simulator behaves differently from containerd the suite shows it.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectCri } from '../../../src/agent/cri/client.ts';
import { containerdSkipReason, startContainerd } from '../../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../../support/oci-image.ts';
import { startAgentProcess, type AgentProcess } from './agent-process.ts';
import { repoRoot, startOrch, type OrchProcess } from './orch-process.ts';
import { rawClient, type RawClient } from './raw-client.ts';
import { until } from './until.ts';

/** the image every case runs: busybox on containerd, preloaded in the simulator */
export const image = 'docker.io/library/busybox:1.36';

interface Runtime { endpoint: string; stop(): Promise<void> }

export interface RuntimeKind {
  name: 'containerd' | 'runtime-sim';
  /** why it cannot run here (a missing tool), or undefined */
  missing(): string | undefined;
  start(): Promise<Runtime>;
}

async function startSim(): Promise<Runtime> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-sim-'));
  const child = spawn(join(repoRoot, 'bin/orch'), ['runtime-sim', '--socket', join(dir, 'cri.sock'), '--checkpoint', '--preload-images', `${image},registry.k8s.io/pause:3.9`, '--pod-subnet', '10.245.0.0/16'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  const endpoint = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); rej(new Error(`runtime-sim did not start in 20s: ${err}`)); }, 20_000);
    child.stdout!.on('data', d => { out += d; const m = /serving the CRI on (\S+)/.exec(out); if (m) { clearTimeout(timer); res(m[1]!); } });
    void exited.then(() => { clearTimeout(timer); rej(new Error(`runtime-sim exited before serving: ${err}`)); });
  });
  return { endpoint, async stop() { child.kill('SIGTERM'); await exited; await rm(dir, { recursive: true, force: true }); } };
}

export const runtimeKinds: RuntimeKind[] = [
  {
    name: 'containerd',
    missing: () => containerdSkipReason() ?? busyboxSkipReason(),
    async start() {
      const c = await startContainerd();
      try {
        await importBusyboxImage(c, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
      } catch (err) {
        await c.stop();
        throw err;
      }
      return c;
    },
  },
  { name: 'runtime-sim', missing: () => undefined, start: startSim },
];

export interface PodCluster {
  runtime: string;
  orch: OrchProcess;
  c: RawClient;
  node: string;
  endpoint: string;
  /** where the agent keeps container logs, a directory per pod */
  logsDir: string;
  agent(): AgentProcess;
  /** kill -9 the agent and start it again on the same root directory and port, doing `meanwhile` while it is down */
  restartAgent(meanwhile?: () => Promise<unknown>): Promise<void>;
  /** the runtime's containers for a pod, by CRI ListContainers (both runtimes answer it) */
  containersOf(podName: string): Promise<Array<{ id: string; state: string }>>;
  /** the runtime loses a pod's sandboxes, as after a reboot or the runtime's own clean-up */
  removeSandboxes(podName: string): Promise<void>;
}

/** the runtime, `orch server` and `orch agent` on it; torn down after the test, agent first so nothing restarts containers */
export async function startPodCluster(kind: RuntimeKind, t: { after(fn: () => unknown): void }): Promise<PodCluster> {
  const teardown: Array<() => Promise<unknown>> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
  const runtime = await kind.start();
  teardown.push(() => runtime.stop());
  const orch = await startOrch({ args: [] });
  teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
  const dir = await mkdtemp(join(tmpdir(), 'orch-behaviour-'));
  teardown.push(() => rm(dir, { recursive: true, force: true }));
  const node = `${kind.name}-node-${process.pid}`;
  const logsDir = join(dir, 'logs');
  const options = {
    kubeconfig: orch.kubeconfig,
    args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint],
    config: { nodeStatusUpdateFrequency: '1s', podLogsDir: logsDir, syncFrequency: '2s', clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local' },
  };
  let agent = await startAgentProcess(options);
  teardown.push(async () => { await agent.stop(); await agent.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  await until(`the ${kind.name} node Ready`, async () => (await c.request('GET', `/api/v1/nodes/${node}`)).json()?.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True'), 30_000);
  const cri = await connectCri(runtime.endpoint, { timeoutMs: 15_000 });
  teardown.push(async () => cri.close());
  return {
    runtime: kind.name, orch, c, node, endpoint: runtime.endpoint, logsDir,
    agent: () => agent,
    async restartAgent(meanwhile) {
      await agent.kill();
      await meanwhile?.();
      agent = await startAgentProcess({ ...options, rootDir: agent.rootDir, port: agent.port });
    },
    async containersOf(podName) {
      const sandboxes = (await cri.listPodSandbox({})).items.filter(s => s.metadata?.name === podName).map(s => s.id);
      return (await cri.listContainers({})).containers.filter(x => sandboxes.includes(x.podSandboxId)).map(x => ({ id: x.id, state: x.state }));
    },
    async removeSandboxes(podName) {
      for (const s of (await cri.listPodSandbox({})).items.filter(x => x.metadata?.name === podName)) {
        await cri.stopPodSandbox({ podSandboxId: s.id });
        await cri.removePodSandbox({ podSandboxId: s.id });
      }
    },
  };
}
