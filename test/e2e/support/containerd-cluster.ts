// One API server, one node agent and a private containerd with the busybox image, for e2e tests
// of pods on a real runtime; torn down in reverse order (the agent first, so nothing restarts
// containers, the runtime last).

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

export interface ContainerdCluster { orch: OrchProcess; agent: AgentProcess; runtime: Containerd; c: RawClient; node: string; dir: string }

export async function startContainerdCluster(t: { after(fn: () => unknown): void }, agentConfig: Record<string, unknown> = {}): Promise<ContainerdCluster> {
  const teardown: Array<() => Promise<unknown>> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
  const runtime = await startContainerd();
  teardown.push(() => runtime.stop());
  await importBusyboxImage(runtime, [busyboxImage, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const orch = await startOrch({ args: [] });
  teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
  const dir = await mkdtemp(join(tmpdir(), 'orch-cluster-'));
  teardown.push(() => rm(dir, { recursive: true, force: true }));
  const node = `node-${process.pid}`;
  const agent = await startAgentProcess({
    kubeconfig: orch.kubeconfig,
    args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint],
    config: { nodeStatusUpdateFrequency: '1s', podLogsDir: join(dir, 'logs'), syncFrequency: '2s', ...agentConfig },
  });
  teardown.push(async () => { await agent.stop(); await agent.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  await until('the node', async () => (await c.request('GET', `/api/v1/nodes/${node}`)).status === 200);
  return { orch, agent, runtime, c, node, dir };
}

/** a pod bound to the node running busybox, with a short grace period */
export function busyboxPod(name: string, node: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: node, terminationGracePeriodSeconds: 5, containers: [{ name: 'main', image: busyboxImage, imagePullPolicy: 'IfNotPresent', ...container }], ...spec } };
}

export const createPod = (c: RawClient, obj: unknown) => c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
export const getPod = async (c: RawClient, name: string) => { const r = await c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
export const podLog = async (c: RawClient, name: string, container = '') => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}/log${container ? `?container=${container}` : ''}`)).body;
export const condition = (pod: any, type: string) => pod?.status?.conditions?.find((x: any) => x.type === type);
