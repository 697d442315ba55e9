// Device plugins end to end: an API server process, an in-process agent on the simulated runtime,
// and a device plugin written here with grpc-js. The plugin registers on the agent's socket; its
// devices show in the Node's capacity and allocatable as the API serves them, and follow a health
// change; a pod asking for a device starts with the plugin's variable in its environment; a pod
// asking for more than is free fails admission in the kubelet's words; the pod resources socket
// lists what the first pod holds; the pod deleted, its device goes to the next pod. Then once on
// containerd: the variable the plugin's Allocate gives is in a real container's environment.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '../../src/api/log.ts';
import { startAgent, type Agent } from '../../src/agent/agent.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { checkpointName, decodeCheckpoint } from '../../src/agent/devices/checkpoint.ts';
import { devicePluginsDir } from '../../src/agent/devices/start.ts';
import { podResourcesService, podResourcesSocket } from '../../src/agent/podresources/server.ts';
import { criRuntimeProbe } from '../../src/agent/runtime-probe.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startRuntimeSim } from '../../src/runtime-sim/server.ts';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';
import { startFakePlugin, type FakePlugin } from '../unit/agent/devices/fake-plugin.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { requires } from '../support/requires.ts';

const image = 'registry.local/app:1.0';
const R = 'example.com/dev';
const node = 'devices-node';

test('device plugin → node capacity/allocatable → pod admitted with its environment, or refused; pod resources; freed on delete', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'devices-e2e-'));
  const orch = await startOrch();
  const rootDir = join(dir, 'root');
  await mkdir(rootDir, { recursive: true });
  const sim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), podSubnet: '10.231.9.0/24', preloadedImages: [image] });
  const cri = await connectCri(sim.endpoint, { timeoutMs: 30_000 });
  const kc = await loadKubeconfig(orch.kubeconfig);
  const apiClient = createClient(kc, { userAgent: 'orch-agent/devices-node' });
  const podLogsDir = join(rootDir, 'logs');
  const agent: Agent = await startAgent({
    settings: {
      address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110,
      failSwapOn: false, staticPodPath: join(rootDir, 'manifests'), podLogsDir,
    },
    client: apiClient, clusterCA: kc.ca?.toString('utf8'), hostnameOverride: node, nodeIPs: ['127.0.0.1'],
    rootDir, certDir: join(rootDir, 'pki'), runtime: criRuntimeProbe(async () => cri), cri, log: createLogger('error'),
  });
  let plugin: FakePlugin | undefined;
  const lister = new (podResourcesService())(`unix:${podResourcesSocket(rootDir)}`, credentials.createInsecure()) as Client & Record<string, Function>;
  t.after(async () => {
    lister.close();
    plugin?.stop();
    await agent.stop();
    apiClient.close();
    cri.close();
    await sim.stop();
    await orch.stop();
    await orch.cleanup();
    await unmountAllUnder(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  const api = rawClient(orch.kubeconfig);
  const get = async (path: string) => { const r = await api.request('GET', path); assert.equal(r.status, 200, r.body); return r.json(); };
  const nodeResources = async () => { const n = await get(`/api/v1/nodes/${node}`); return [n.status?.capacity?.[R], n.status?.allocatable?.[R]]; };
  await until('the node registered', async () => (await api.request('GET', `/api/v1/nodes/${node}`)).status === 200);

  const started = Date.now();
  plugin = await startFakePlugin(join(devicePluginsDir(rootDir), 'dev.sock'), { devices: [{ ID: 'd1', health: 'Healthy' }, { ID: 'd2', health: 'Healthy' }] });
  await plugin.register(join(devicePluginsDir(rootDir), 'agent.sock'), R);
  await until('the devices in the Node', async () => JSON.stringify(await nodeResources()) === '["2","2"]', 10_000, 50);
  console.log(`# a registered plugin's devices in the Node's status after ${Date.now() - started} ms`);
  plugin.setDevices([{ ID: 'd1', health: 'Healthy' }, { ID: 'd2', health: 'Unhealthy' }]);
  await until('the health change in the Node', async () => JSON.stringify(await nodeResources()) === '["2","1"]', 10_000, 50);

  const create = async (name: string, count: number) => {
    const body = { metadata: { name }, spec: { nodeName: node, restartPolicy: 'Never', containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'echo "devices=$DEVICES"; trap "exit 0" TERM; while true; do sleep 1; done'], resources: { limits: { [R]: String(count) } } }] } };
    const r = await api.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 201, r.body);
    return r.json().metadata.uid as string;
  };
  const uid = await create('with-device', 1);
  await until('with-device Running', async () => (await get('/api/v1/namespaces/default/pods/with-device')).status?.phase === 'Running');
  assert.deepEqual(plugin.allocations, [['d1']]);
  const log = join(podLogsDir, `default_with-device_${uid}`, 'app', '0.log');
  await until('the plugin\'s variable in the container', async () => (await readFile(log, 'utf8').catch(() => '')).includes('devices=d1'));

  await create('too-many', 1);
  const refused = await until('too-many refused', async () => { const p = await get('/api/v1/namespaces/default/pods/too-many'); return p.status?.phase === 'Failed' && p.status; });
  assert.equal(refused.reason, 'UnexpectedAdmissionError');
  assert.equal(refused.message, `Allocate failed due to requested number of devices unavailable for ${R}. Requested: 1, Available: 0, which is unexpected`);

  const list = await new Promise<any>((resolve, reject) => lister.List!({}, new Metadata(), (err: ServiceError | null, res: unknown) => (err ? reject(err) : resolve(res))));
  const mine = list.podResources.find((p: any) => p.name === 'with-device');
  assert.deepEqual(mine.containers, [{ name: 'app', devices: [{ resourceName: R, deviceIds: ['d1'], topology: null }], cpuIds: [], memory: [], dynamicResources: [] }]);
  assert.ok(!list.podResources.some((p: any) => p.name === 'too-many'), 'a refused pod holds nothing and is not listed');

  const held = async () => decodeCheckpoint(await readFile(join(devicePluginsDir(rootDir), checkpointName), 'utf8')).PodDeviceEntries?.map(e => e.PodUID) ?? [];
  assert.deepEqual(await held(), [uid]);
  const del = await api.request('DELETE', '/api/v1/namespaces/default/pods/with-device?gracePeriodSeconds=0');
  assert.ok(del.status === 200 || del.status === 202, del.body);
  await until('with-device gone from the node', async () => !agent.pods!.workers.has(uid));
  // the next admission frees what ended pods held, as the kubelet's does: the device serves again
  const again = await create('reuse', 1);
  await until('reuse Running', async () => { const p = await get('/api/v1/namespaces/default/pods/reuse'); if (p.status?.phase === 'Failed') throw new Error(JSON.stringify(p.status)); return p.status?.phase === 'Running'; }, 10_000);
  assert.deepEqual(plugin.allocations, [['d1'], ['d1']]);
  assert.deepEqual(await held(), [again]);
});

test('on containerd: the variable a device plugin\'s Allocate gives is in a real container\'s environment', requires(containerdSkipReason() ?? busyboxSkipReason()), async t => {
  const teardown: Array<() => Promise<unknown>> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
  const busybox = 'docker.io/library/busybox:1.36';
  const runtime = await startContainerd();
  teardown.push(() => runtime.stop());
  await importBusyboxImage(runtime, [busybox, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const orch = await startOrch();
  teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
  const dir = await mkdtemp(join(tmpdir(), 'devices-ctrd-'));
  teardown.push(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); });
  const cri = await connectCri(runtime.endpoint, { timeoutMs: 60_000 });
  teardown.push(async () => cri.close());
  const kc = await loadKubeconfig(orch.kubeconfig);
  const apiClient = createClient(kc, { userAgent: 'orch-agent/devices-ctrd' });
  teardown.push(async () => apiClient.close());
  const rootDir = join(dir, 'root');
  const podLogsDir = join(rootDir, 'logs');
  const name = `devices-ctrd-${process.pid}`;
  const agent = await startAgent({
    settings: { address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110, failSwapOn: false, staticPodPath: join(rootDir, 'manifests'), podLogsDir },
    client: apiClient, clusterCA: kc.ca?.toString('utf8'), hostnameOverride: name, nodeIPs: ['127.0.0.1'],
    rootDir, certDir: join(rootDir, 'pki'), runtime: criRuntimeProbe(async () => cri), cri, log: createLogger('error'),
  });
  teardown.push(() => agent.stop());
  const plugin = await startFakePlugin(join(devicePluginsDir(rootDir), 'gpu.sock'), { devices: [{ ID: 'gpu0', health: 'Healthy' }] });
  teardown.push(async () => plugin.stop());
  await plugin.register(join(devicePluginsDir(rootDir), 'agent.sock'), 'example.com/gpu');
  const api = rawClient(orch.kubeconfig);
  const body = { metadata: { name: 'gpu-env' }, spec: { nodeName: name, restartPolicy: 'Never', containers: [{ name: 'app', image: busybox, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'echo "DEVICES=$DEVICES"'], resources: { limits: { 'example.com/gpu': '1' } } }] } };
  const r = await api.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, r.body);
  const uid = r.json().metadata.uid as string;
  await until('gpu-env Succeeded', async () => { const p = (await api.request('GET', '/api/v1/namespaces/default/pods/gpu-env')).json(); if (p.status?.phase === 'Failed') throw new Error(JSON.stringify(p.status)); return p.status?.phase === 'Succeeded'; }, 30_000);
  const log = await readFile(join(podLogsDir, `default_gpu-env_${uid}`, 'app', '0.log'), 'utf8');
  assert.match(log, / stdout F DEVICES=gpu0$/m);
});
