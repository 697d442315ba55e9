// The pod info gRPC API (PodInfoAPI) with a real grpc-js client on the agent's socket: an API
// server process and an in-process agent on the simulated runtime. ListPods, GetPod and
// WatchPods with and without field masks; the socket's mode; an agent restarted while the API
// server is down answers FAILED_PRECONDITION until it has synced again; the pods stay served
// with the API server stopped; the gate off offers no socket.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, makeGenericClientConstructor, Metadata, status, type Client, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { createLogger } from '../../src/api/log.ts';
import { startAgent, type Agent } from '../../src/agent/agent.ts';
import { connectCri, type CriClient } from '../../src/agent/cri/client.ts';
import { podInfoSocket } from '../../src/agent/podinfo/server.ts';
import { podsService } from '../../src/agent/podinfo/service.ts';
import { criRuntimeProbe } from '../../src/agent/runtime-probe.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startRuntimeSim } from '../../src/runtime-sim/server.ts';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';
const PodsClient = makeGenericClientConstructor(podsService, 'Pods');
type Pods = Client & Record<string, Function>;

function mask(paths?: string[], binary = true): Metadata {
  const md = new Metadata();
  if (!paths) return md;
  if (!binary) { md.set('field-mask', paths.join(',')); return md; }
  const w = new BinaryWriter();
  for (const p of paths) w.tag(1, WireType.LengthDelimited).string(p);
  md.set('field-mask-bin', Buffer.from(w.finish()));
  return md;
}

const call = <T>(c: Pods, method: string, req: object, md = mask()) => new Promise<T>((resolve, reject) =>
  c[method]!.call(c, req, md, (err: ServiceError | null, res: T) => (err ? reject(err) : resolve(res))));
const listPods = (c: Pods, md?: Metadata) => call<any[]>(c, 'ListPods', {}, md);
const getPod = (c: Pods, podUID: string, md?: Metadata) => call<any>(c, 'GetPod', { podUID }, md);
const code = async (p: Promise<unknown>) => p.then(() => 'OK', (e: ServiceError) => e.code);

test('pod info gRPC: list, get and watch with masks; restart (FAILED_PRECONDITION first); API server stopped; gate off', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'podinfo-e2e-'));
  let orch: OrchProcess = await startOrch();
  const dataDir = orch.dataDir, port = orch.port;
  const rootDir = join(dir, 'root');
  await mkdir(rootDir, { recursive: true });
  const sim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), podSubnet: '10.231.7.0/24', preloadedImages: [image] });
  const cri = await connectCri(sim.endpoint, { timeoutMs: 30_000 });
  const kc = await loadKubeconfig(orch.kubeconfig);
  const apiClient = createClient(kc, { userAgent: 'orch-agent/podinfo-node' });
  const log = createLogger('error');
  const start = (root: string, gate: boolean, runtime: CriClient = cri) => startAgent({
    settings: {
      address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110,
      failSwapOn: false, staticPodPath: join(root, 'manifests'), podLogsDir: join(root, 'logs'), featureGates: { PodInfoAPI: gate },
    },
    client: apiClient, clusterCA: kc.ca?.toString('utf8'), hostnameOverride: 'podinfo-node', nodeIPs: ['127.0.0.1'],
    rootDir: root, certDir: join(root, 'pki'), runtime: criRuntimeProbe(async () => runtime), cri: runtime, log,
  });
  let agent: Agent | undefined = await start(rootDir, true);
  const clients: Client[] = [];
  const connect = () => { const c = new PodsClient(`unix:${podInfoSocket(rootDir)}`, credentials.createInsecure()) as Pods; clients.push(c); return c; };
  t.after(async () => {
    for (const c of clients) c.close();
    await agent?.stop();
    apiClient.close();
    cri.close();
    await sim.stop();
    await orch.stop();
    await orch.cleanup();
    // the pods' volumes (tmpfs for their service account tokens when run as root)
    await unmountAllUnder(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  const socketMode = (await stat(podInfoSocket(rootDir))).mode;
  assert.ok((socketMode & 0o170000) === 0o140000, 'a UNIX socket');
  assert.equal(socketMode & 0o777, 0o600, 'mode 0600');

  const api = rawClient(orch.kubeconfig);
  const create = async (name: string) => {
    const body = { metadata: { name }, spec: { nodeName: 'podinfo-node', containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 1; done'] }] } };
    const r = await api.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 201, r.body);
    return r.json().metadata.uid as string;
  };
const uidA = await create('info-a');
  const c = connect();
  const running = (pods: any[], uid: string) => pods.some(p => p.metadata?.uid === uid && p.status?.phase === 'Running');
  await until('info-a Running in ListPods', async () => running(await listPods(c), uidA));
  // no mask: the whole pod, spec included, as the agent sees it
  const whole = (await listPods(c)).find(p => p.metadata.uid === uidA);
  assert.equal(whole.metadata.name, 'info-a');
  assert.equal(whole.spec.containers[0].image, image);
  assert.match(whole.status.podIP, /^10\.231\.7\./);
  // masks, binary and in JSON form
  const masked = await listPods(c, mask(['status.phase', 'status.podIPs']));
  assert.deepEqual(masked, [{ status: { phase: 'Running', podIPs: [{ ip: whole.status.podIP }] } }]);
  assert.deepEqual(await getPod(c, uidA, mask(['metadata.name', 'status.phase'], false)), { metadata: { name: 'info-a' }, status: { phase: 'Running' } });
  assert.equal((await getPod(c, uidA)).spec.nodeName, 'podinfo-node');
  assert.equal(await code(getPod(c, 'no-such-uid')), status.NOT_FOUND);
  assert.equal(await code(listPods(c, mask(['status.nothing']))), status.INVALID_ARGUMENT);
  assert.equal(await code(getPod(c, uidA, mask(['spec.containers.image']))), status.INVALID_ARGUMENT);
  // WatchPods: the changes of a new pod as the agent computes them, masked
  const seen: any[] = [];
  const stream = c.WatchPods!.call(c, {}, mask(['metadata.name', 'status.phase'])) as ClientReadableStream<any>;
  stream.on('data', p => seen.push(p));
  stream.on('error', () => undefined);
  const uidB = await create('info-b');
  await until('info-b Running in the watch', async () => seen.some(p => p.metadata?.name === 'info-b' && p.status?.phase === 'Running'));
  assert.ok(seen.every(p => Object.keys(p).every(k => k === 'metadata' || k === 'status') && Object.keys(p.metadata).join() === 'name'), JSON.stringify(seen));
  for (let i = 1; i < seen.length; i++) assert.notDeepEqual(seen[i], seen[i - 1], 'one response per change, none repeated');
  stream.cancel();
  // the API server stopped: the agent's view is still served
  await orch.stop();
  const offline = await listPods(c);
  assert.ok(running(offline, uidA) && running(offline, uidB), 'both pods Running with the API server gone');
  assert.equal((await getPod(c, uidB, mask(['status.phase']))).status.phase, 'Running');
  // the agent restarted while the API server is down: it cannot know its pods are all there yet
  await agent.stop();
  agent = undefined;
  assert.ok(!existsSync(podInfoSocket(rootDir)), 'the socket goes with the agent');
  agent = await start(rootDir, true);
  const c2 = connect();
  assert.equal(await code(listPods(c2)), status.FAILED_PRECONDITION);
  assert.equal(await code(getPod(c2, uidA)), status.FAILED_PRECONDITION);
  const watchErr = await new Promise<number>(resolve => {
    const s = c2.WatchPods!.call(c2, {}, mask()) as ClientReadableStream<any>;
    s.on('error', (e: ServiceError) => resolve(e.code));
    s.on('data', () => resolve(-1));
  });
  assert.equal(watchErr, status.FAILED_PRECONDITION);
  // the API server back: the agent syncs and serves the same pods, still running
  const restartedAt = Date.now();
  orch = await startOrch({ dataDir, port });
  await until('ListPods answering after the restart', async () => { const pods = await listPods(c2); return running(pods, uidA) && running(pods, uidB); }, 20_000);
  console.log(`# pod info served ${Date.now() - restartedAt} ms after the API server came back to a restarted agent`);
  // the gate off (its default): no socket
  const sim2 = await startRuntimeSim({ socket: join(dir, 'cri2.sock'), podSubnet: '10.231.8.0/24', preloadedImages: [image] });
  const cri2 = await connectCri(sim2.endpoint, { timeoutMs: 30_000 });
  const root2 = join(dir, 'root-off');
  const off = await start(root2, false, cri2);
  assert.ok(!existsSync(podInfoSocket(root2)), 'PodInfoAPI off: no pod info socket');
  await off.stop();
  cri2.close();
  await sim2.stop();
});
