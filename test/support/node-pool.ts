// Many simulated nodes in one process: for each, an `orch runtime-sim` CRI server on its own
// socket and a node agent (the real one, in-process) registered with the API server. Scale
// tests and the pod start benchmark run a cluster of these.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/api/log.ts';
import { startAgent, type Agent } from '../../src/agent/agent.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { criRuntimeProbe } from '../../src/agent/runtime-probe.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import { startRuntimeSim, type RuntimeSim } from '../../src/runtime-sim/server.ts';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';

export interface NodePool {
  names: string[];
  agents: Agent[];
  stop(): Promise<void>;
}

/** `podSubnetBits`: the prefix length of each node's pod subnet (24 unless given), smaller for a test that must run past a node's addresses */
export async function startNodePool(opts: { kubeconfig: string; nodes: number; prefix?: string; images?: string[]; startDelayMs?: number; unpullableImages?: string[]; podSubnetBits?: number }): Promise<NodePool> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pool-'));
  const kc = await loadKubeconfig(opts.kubeconfig);
  const log = createLogger('error');
  const sims: RuntimeSim[] = [];
  const agents: Agent[] = [];
  const clients: Client[] = [];
  const names: string[] = [];
  const closers: Array<() => void> = [];
  for (let i = 0; i < opts.nodes; i++) {
    const name = `${opts.prefix ?? 'sim-node'}-${i}`;
    const root = join(dir, name);
    await mkdir(root, { recursive: true });
    const sim = await startRuntimeSim({ socket: join(root, 'cri.sock'), podSubnet: `10.${200 + Math.floor(i / 250)}.${i % 250}.0/${opts.podSubnetBits ?? 24}`, preloadedImages: opts.images ?? [], startDelayMs: opts.startDelayMs ?? 0, unpullableImages: opts.unpullableImages });
    sims.push(sim);
    const client = createClient(kc, { userAgent: `orch-agent/${name}` });
    clients.push(client);
    const cri = await connectCri(sim.endpoint, { timeoutMs: 30_000 });
    closers.push(() => cri.close());
    const agent = await startAgent({
      settings: {
        address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110,
        failSwapOn: false, staticPodPath: join(root, 'manifests'), podLogsDir: join(root, 'logs'),
      },
      client,
      clusterCA: kc.ca?.toString('utf8'),
      hostnameOverride: name,
      nodeIPs: ['127.0.0.1'],
      rootDir: root,
      certDir: join(root, 'pki'),
      runtime: criRuntimeProbe(async () => cri),
      cri,
      log,
    });
    agents.push(agent);
    names.push(name);
  }
  return {
    names,
    agents,
    async stop() {
      await Promise.all(agents.map(a => a.stop()));
      for (const c of clients) c.close();
      for (const c of closers) c();
      await Promise.all(sims.map(s => s.stop()));
      // volumes of pods still there when the pool stops (tmpfs for Secrets when run as root)
      await unmountAllUnder(dir);
      // a pod worker may still be finishing a write as it stops: the removal tries again
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}
