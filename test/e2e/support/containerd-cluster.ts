// One node on real containerd for e2e tests: a private containerd with the local busybox image
// (also the sandbox image), `orch server`, and `orch agent` on that runtime, torn down in
// reverse when the test ends. The agent can be started again on the same root and port with
// another configuration.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startContainerd, type Containerd } from '../../support/containerd.ts';
import { importBusyboxImage } from '../../support/oci-image.ts';
import { startAgentProcess, type AgentProcess } from './agent-process.ts';
import { startOrch, type OrchProcess } from './orch-process.ts';
import { rawClient, type RawClient } from './raw-client.ts';
import { until } from './until.ts';

export const busyboxImage = 'docker.io/library/busybox:1.36';

export interface ContainerdCluster {
  orch: OrchProcess;
  runtime: Containerd;
  agent: AgentProcess;
  c: RawClient;
  node: string;
  /** a temp dir of the test's own (the agent's pod logs are under logs/) */
  dir: string;
  /** stops the agent and starts it again on the same root and port with `config` added */
  restartAgent(config: Record<string, unknown>): Promise<AgentProcess>;
}

export async function startContainerdCluster(t: { after(fn: () => unknown): void }, name: string, config: Record<string, unknown> = {}, orchArgs: string[] = []): Promise<ContainerdCluster> {
  const teardown: Array<() => Promise<unknown>> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
  const runtime = await startContainerd();
  teardown.push(() => runtime.stop());
  await importBusyboxImage(runtime, [busyboxImage, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const orch = await startOrch({ args: orchArgs });
  teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
  const dir = await mkdtemp(join(tmpdir(), `orch-${name}-`));
  teardown.push(() => rm(dir, { recursive: true, force: true }));
  const node = `${name}-node-${process.pid}`;
  const base = {
    kubeconfig: orch.kubeconfig,
    args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint],
    config: { nodeStatusUpdateFrequency: '1s', podLogsDir: join(dir, 'logs'), syncFrequency: '2s', ...config },
  };
  const cluster: ContainerdCluster = {
    orch, runtime, dir, node,
    agent: await startAgentProcess(base),
    c: rawClient(orch.kubeconfig),
    async restartAgent(more) {
      await cluster.agent.stop();
      cluster.agent = await startAgentProcess({ ...base, rootDir: cluster.agent.rootDir, port: cluster.agent.port, config: { ...base.config, ...more } });
      return cluster.agent;
    },
  };
  teardown.push(async () => { await cluster.agent.stop(); await cluster.agent.cleanup(); });
  await until('the node', async () => (await cluster.c.request('GET', `/api/v1/nodes/${node}`)).status === 200);
  return cluster;
}

/** a pod bound to the node running busybox, with a short grace period */
export function busyboxPod(name: string, node: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: node, terminationGracePeriodSeconds: 5, containers: [{ name: 'main', image: busyboxImage, imagePullPolicy: 'IfNotPresent', ...container }], ...spec } };
}

export const createPod = (c: RawClient, obj: unknown) => c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
export const getPod = async (c: RawClient, name: string) => { const r = await c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
export const podLog = async (c: RawClient, name: string, container = '') => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}/log${container ? `?container=${container}` : ''}`)).body;
export const condition = (pod: any, type: string) => pod?.status?.conditions?.find((x: any) => x.type === type);
