// Graceful node shutdown against a private dbus-daemon and a logind stand-in: an API server
// process and an in-process agent on the simulated runtime, shutdownGracePeriod 5s with 3s for
// critical pods. The agent raises logind's too short InhibitDelayMaxUSec through its drop-in and
// holds a delay lock; PrepareForShutdown(true) turns the node not ready, ends the regular pod at
// its range's 2 s and the critical pod after it (at its own 2 s, within its range's 3 s),
// refuses a new pod, writes the state file and releases the lock after the pods;
// PrepareForShutdown(false) takes the lock again and the node is ready again; a restarted bus
// gets a new lock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/api/log.ts';
import { startAgent, type Agent } from '../../src/agent/agent.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { criRuntimeProbe } from '../../src/agent/runtime-probe.ts';
import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient } from '../../src/client/rest.ts';
import { startRuntimeSim } from '../../src/runtime-sim/server.ts';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';
import { requires } from '../support/requires.ts';
import { startOrch } from './support/orch-process.ts';
import { privateBusMissing, startLogindStandIn } from './support/private-dbus.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';
const node = 'shutdown-node';
const message = 'Pod was terminated in response to imminent node shutdown.';

test('graceful node shutdown: lock, not ready, pods by priority within their periods, state file, lock released, cancel', requires(privateBusMissing()), async t => {
  const dir = await mkdtemp(join(tmpdir(), 'node-shutdown-e2e-'));
  const rootDir = join(dir, 'root');
  const dropInDir = join(dir, 'logind.conf.d');
  await mkdir(rootDir, { recursive: true });
  const bus = await startLogindStandIn(dir, 1_000_000, dropInDir);
  const orch = await startOrch();
  const sim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), podSubnet: '10.231.9.0/24', preloadedImages: [image] });
  const cri = await connectCri(sim.endpoint, { timeoutMs: 30_000 });
  const kc = await loadKubeconfig(orch.kubeconfig);
  const api = createClient(kc, { userAgent: 'orch-agent/shutdown-node' });
  let agent: Agent | undefined;
  t.after(async () => {
    await agent?.stop();
    api.close();
    cri.close();
    await sim.stop();
    await orch.stop();
    await orch.cleanup();
    await bus.stop();
    await unmountAllUnder(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  agent = await startAgent({
    settings: {
      address: '127.0.0.1', port: 0, nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '5m', nodeLeaseDurationSeconds: 40, maxPods: 110,
      failSwapOn: false, staticPodPath: join(rootDir, 'manifests'), podLogsDir: join(rootDir, 'logs'),
      shutdownGracePeriod: '5s', shutdownGracePeriodCriticalPods: '3s',
    },
    client: api, clusterCA: kc.ca?.toString('utf8'), hostnameOverride: node, nodeIPs: ['127.0.0.1'],
    rootDir, certDir: join(rootDir, 'pki'), runtime: criRuntimeProbe(async () => cri), cri, log: createLogger('error'),
    systemBusAddress: bus.address, logindDropInDir: dropInDir,
  });
  await agent.shutdown!.started;

  // logind allowed 1 s; the agent asked for the 5 s it needs, and logind reloaded
  assert.equal(await readFile(join(dropInDir, '99-kubelet.conf'), 'utf8'), "# the orch node agent's logind override, room for its graceful node shutdown\n[Login]\nInhibitDelayMaxSec=5\n");
  assert.equal(await bus.inhibitDelayMaxUSec(), 5_000_000);
  const locks = await bus.inhibitors();
  assert.equal(locks.length, 1);
  assert.deepEqual(locks[0]!.slice(0, 4), ['shutdown', 'kubelet', 'Kubelet needs time to handle node shutdown', 'delay']);

  // both ignore SIGTERM (an untrapped TERM does nothing to the simulated shell): each ends at its range's period
  const pod = (name: string, namespace: string, extra: object = {}) => ({
    metadata: { name, namespace },
    spec: { nodeName: node, terminationGracePeriodSeconds: 30, containers: [{ name: 'app', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'while true; do sleep 1; done'] }], ...extra },
  });
  await api.create('/api/v1/namespaces/default/pods', pod('regular', 'default'));
  // the critical pod's own grace period (2 s) is shorter than its range's (3 s): it gets its own
  await api.create('/api/v1/namespaces/kube-system/pods', pod('critical', 'kube-system', { priorityClassName: 'system-node-critical', terminationGracePeriodSeconds: 2 }));
  const get = (ns: string, name: string) => api.get(`/api/v1/namespaces/${ns}/pods/${name}`);
  await until('both pods Running', async () => (await get('default', 'regular')).status?.phase === 'Running' && (await get('kube-system', 'critical')).status?.phase === 'Running');
  await until('the node Ready', async () => (await api.get(`/api/v1/nodes/${node}`)).status?.conditions?.find((c: any) => c.type === 'Ready')?.status === 'True');

  const t0 = Date.now();
  await bus.prepareForShutdown(true);

  const ready = await until('the node not ready', async () => {
    const c = (await api.get(`/api/v1/nodes/${node}`)).status?.conditions?.find((x: any) => x.type === 'Ready');
    return c?.status === 'False' && c;
  }, 10_000, 100);
  assert.equal(ready.reason, 'KubeletNotReady');
  assert.equal(ready.message, 'node is shutting down');

  // a pod offered now is refused
  await api.create('/api/v1/namespaces/default/pods', { ...pod('late', 'default'), metadata: { name: 'late', namespace: 'default' } });
  const late = await until('the late pod refused', async () => { const p = await get('default', 'late'); return p.status?.phase === 'Failed' && p; }, 10_000, 100);
  assert.equal(late.status.reason, 'NodeShutdown');
  assert.equal(late.status.message, 'Pod was rejected as the node is shutting down.');

  await agent.shutdown!.idle();
  const tEnd = Date.now();
  // when each pod's container ended, as the runtime tells it (nanoseconds)
  const ended = new Map<string, number>();
  for (const c of (await cri.listContainers({})).containers) {
    const st = (await cri.containerStatus({ containerId: c.id, verbose: false })).status!;
    ended.set(c.labels!['io.kubernetes.pod.name']!, st.finishedAt / 1e6)
  }
  const regularAt = ended.get('regular')! - t0, criticalAt = ended.get('critical')! - t0;
  assert.ok(regularAt >= 1800 && regularAt < 3500, `the regular pod ended ${regularAt} ms after the signal (its range: 2 s)`);
  assert.ok(criticalAt - regularAt >= 1800 && criticalAt - regularAt < 2900, `the critical pod ended ${criticalAt} ms after the signal, ${criticalAt - regularAt} ms after the regular one (its own 2 s)`);

  // the lock went after the last pod, and the state file says when the shutdown ran
  assert.deepEqual(await bus.inhibitors(), []);
  const [releasedAt] = await bus.released();
  assert.ok(releasedAt! >= ended.get('critical')! - 50, `the lock was released ${releasedAt! - t0} ms after the signal`);
  const state = JSON.parse(await readFile(join(rootDir, 'graceful_node_shutdown_state'), 'utf8'));
  assert.deepEqual(Object.keys(state), ['startTime', 'endTime']);
  const start = Date.parse(state.startTime), end = Date.parse(state.endTime);
  assert.ok(start >= t0 - 1000 && start <= t0 + 1000, state.startTime);
  assert.ok(end >= ended.get('critical')! - 50 && end <= releasedAt! + 50 && end <= tEnd + 50, `${state.endTime}: ${end - t0} ms after the signal`);

  for (const [ns, name] of [['default', 'regular'], ['kube-system', 'critical']] as const) {
    const p = await until(`${name} Failed in the API`, async () => { const x = await get(ns, name); return x.status?.phase === 'Failed' && x; }, 10_000, 100);
    assert.equal(p.status.reason, 'Terminated');
    assert.equal(p.status.message, message);
    const cond = p.status.conditions.find((c: any) => c.type === 'DisruptionTarget');
    assert.deepEqual({ status: cond.status, reason: cond.reason, message: cond.message }, { status: 'True', reason: 'TerminationByKubelet', message });
  }

  // cancelled: the lock again, and ready again
  await bus.prepareForShutdown(false);
  await until('the lock taken again', async () => (await bus.inhibitors()).length === 1, 10_000, 100);
  await until('the node Ready again', async () => (await api.get(`/api/v1/nodes/${node}`)).status?.conditions?.find((c: any) => c.type === 'Ready')?.status === 'True', 10_000, 100);

  // a restarted system bus: the agent connects again within a second or so and holds a new lock
  await bus.restart();
  await until('the lock taken on the restarted bus', async () => (await bus.inhibitors()).length === 1, 10_000, 100);

  // the node's events say both; the pods get none of their own for it (the kubelet records none)
  const nodeEvents = async () => (await api.list('/api/v1/namespaces/default/events')).items.filter((e: any) => e.involvedObject?.kind === 'Node' && e.reason === 'NodeShutdown').map((e: any) => `${e.type} ${e.message}`).sort();
  await until('the NodeShutdown events', async () => (await nodeEvents()).length === 2, 10_000, 100);
  assert.deepEqual(await nodeEvents(), ['Normal Shutdown manager detected shutdown cancellation', 'Normal Shutdown manager detected shutdown event']);
  const podEvents = [...(await api.list('/api/v1/namespaces/default/events')).items, ...(await api.list('/api/v1/namespaces/kube-system/events')).items];
  assert.deepEqual(podEvents.filter((e: any) => e.reason === 'Terminated'), []);
});
