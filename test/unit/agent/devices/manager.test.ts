import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/api/log.ts';
import { checkpointName, decodeCheckpoint } from '../../../../src/agent/devices/checkpoint.ts';
import { withDevices } from '../../../../src/agent/devices/pod-devices.ts';
import { registrationProblem } from '../../../../src/agent/devices/registration-server.ts';
import { devicePluginsDir, startDevices, type Devices } from '../../../../src/agent/devices/start.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import { fakeClock } from '../fake-clock.ts';
import { startFakePlugin, until } from './fake-plugin.ts';

const R = 'example.com/dev';
const dev = (ID: string, health = 'Healthy', numa?: number) => ({ ID, health, topology: numa === undefined ? null : { nodes: [{ ID: numa }] } });
const pod = (uid: string, containers: Array<[string, number]>, init: Array<[string, number]> = []): Pod => ({
  metadata: { uid, name: `pod-${uid}`, namespace: 'default' },
  spec: {
    initContainers: init.map(([name, n]) => ({ name, image: 'busybox', resources: { limits: { [R]: String(n) } } })),
    containers: containers.map(([name, n]) => ({ name, image: 'busybox', resources: n ? { limits: { [R]: String(n) } } : {} })),
  },
}) as Pod;

test('registration refusals are the kubelet\'s', () => {
  assert.equal(registrationProblem({ version: 'v1alpha', resourceName: R }), 'requested API version "v1alpha" is not supported by kubelet. Supported version is ["v1beta1"]');
  assert.equal(registrationProblem({ version: 'v1beta1', resourceName: 'gpu' }), 'the ResourceName "gpu" is invalid');
  assert.equal(registrationProblem({ version: 'v1beta1', resourceName: 'kubernetes.io/gpu' }), 'the ResourceName "kubernetes.io/gpu" is invalid');
  assert.equal(registrationProblem({ version: 'v1beta1', resourceName: 'example.com/Bad_' }), 'the ResourceName "example.com/Bad_" is invalid');
  assert.equal(registrationProblem({ version: 'v1beta1', resourceName: R }), undefined);
});

test('a plugin registers, its devices become capacity and allocatable, pods get free devices, the checkpoint follows, a restart keeps allocations, a plugin gone is zero after the grace', { skip: process.platform !== 'linux' && 'UNIX sockets' }, async t => {
  const root = await mkdtemp(join(tmpdir(), 'devices-mgr-'));
  const clock = fakeClock();
  let active: Pod[] | undefined = [];
  let changes = 0;
  const start = () => startDevices({ rootDir: root, activePods: () => active, onChange: () => { changes++; }, podResourcesGet: true, clock, log: createLogger('error') });
  let devices: Devices = await start();
  const dir = devicePluginsDir(root);
  const agentSock = join(dir, 'agent.sock');
  assert.ok((await stat(agentSock)).isSocket());
  let plugin = await startFakePlugin(join(dir, 'dev.sock'), { devices: [dev('d1', 'Healthy', 0), dev('d2', 'Healthy', 0), dev('d3', 'Healthy', 1)], preferred: avail => [...avail].sort().reverse() });
  t.after(async () => { plugin.stop(); await devices.stop(); await rm(root, { recursive: true, force: true }); });

  // bad registrations are answered with the kubelet's error; nothing is registered
  await assert.rejects(plugin.register(agentSock, R, { version: 'v1alpha' }), (err: { details: string }) => err.details === 'requested API version "v1alpha" is not supported by kubelet. Supported version is ["v1beta1"]');
  await assert.rejects(plugin.register(agentSock, 'nodomain'), (err: { details: string }) => err.details === 'the ResourceName "nodomain" is invalid');
  await assert.rejects(plugin.register(agentSock, R, { endpoint: 'missing.sock' }), /failed to dial device plugin/);
  assert.deepEqual(devices.manager.capacity(), { capacity: {}, allocatable: {} });

  await plugin.register(agentSock, R);
  await until(() => devices.manager.capacity().capacity[R] === '3', 'the device list');
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '3' }, allocatable: { [R]: '3' } });
  assert.ok(changes > 0, 'a changed device list asks for a node status');

  // one device unhealthy: still counted, not allocatable
  plugin.setDevices([dev('d1', 'Healthy', 0), dev('d2', 'Healthy', 0), dev('d3', 'Unhealthy', 1)]);
  await until(() => devices.manager.capacity().allocatable[R] === '2', 'the health change');
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '3' }, allocatable: { [R]: '2' } });

  // a pod for two: the plugin's preference is asked, then Allocate; the answer reaches the container
  const a = pod('a', [['main', 2]]);
  active = [a];
  assert.deepEqual(await devices.manager.admit(a), { admit: true });
  assert.deepEqual(plugin.preferredAsked, [{ available: ['d1', 'd2'], mustInclude: [], size: 2 }]);
  assert.deepEqual(plugin.allocations, [['d1', 'd2']]);
  const opts = await devices.manager.runOptions(a, a.spec.containers[0]!);
  const config = withDevices({ envs: [{ key: 'DEVICES', value: Buffer.from('own') }], mounts: [], annotations: { 'io.kubernetes.container.hash': 'h' } }, opts);
  assert.deepEqual(config.envs?.map(e => `${e.key}=${Buffer.from(e.value!).toString()}`), ['DEVICES=d1,d2', 'DEVICES=own']);

  // nothing healthy is free: refused as the kubelet refuses it
  const b = pod('b', [['main', 1]]);
  active = [a, b];
  assert.deepEqual(await devices.manager.admit(b), { admit: false, reason: 'UnexpectedAdmissionError', message: `Allocate failed due to requested number of devices unavailable for ${R}. Requested: 1, Available: 0, which is unexpected` });
  // a pod asking nothing of the resource is not the device manager's business
  assert.deepEqual(await devices.manager.admit(pod('n', [['main', 0]])), { admit: true });

  // pod a ends: its devices are free again, and pod b gets one
  active = [b];
  assert.deepEqual(await devices.manager.admit(b), { admit: true });
  assert.equal(plugin.allocations.length, 2);
  const cp = decodeCheckpoint(await readFile(join(dir, checkpointName), 'utf8'));
  assert.deepEqual(cp.PodDeviceEntries?.map(e => [e.PodUID, e.ContainerName, e.ResourceName]), [['b', 'main', R]]);
  assert.deepEqual(cp.RegisteredDevices, { [R]: ['d1', 'd2'] });
  const held = cp.PodDeviceEntries![0]!.DeviceIDs!;
  assert.equal(Object.keys(held).length, 1);
  assert.equal(Object.keys(held)[0], '0', 'the device is filed under its NUMA node');

  // restart: the allocation is read back; the resource is known, zero, until its plugin registers
  // again; the plugin's socket is gone (the sign for plugins to start over), so it serves anew
  await devices.stop();
  devices = await start();
  assert.deepEqual([...devices.manager.podDevices('b').get('main')!.get(R)!].map(d => d.ID), held['0']);
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '0' }, allocatable: { [R]: '0' } });
  await assert.rejects(stat(plugin.socket), { code: 'ENOENT' });
  plugin.stop();
  plugin = await startFakePlugin(join(dir, 'dev.sock'), { devices: [dev('d1', 'Healthy', 0), dev('d2', 'Healthy', 0), dev('d3', 'Healthy', 1)] });
  await plugin.register(agentSock, R);
  await until(() => devices.manager.capacity().capacity[R] === '3', 'the plugin back');
  // b's device is still taken: a pod for all three finds two
  const c = pod('c', [['main', 3]]);
  active = [b, c];
  const refused = await devices.manager.admit(c);
  assert.equal(refused.admit, false);
  assert.match((refused as { message: string }).message, /Requested: 3, Available: 2/);

  // the plugin goes away: all its devices unhealthy at once, the resource zero after 5 minutes
  plugin.stop();
  await until(() => devices.manager.capacity().allocatable[R] === '0', 'the plugin gone');
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '3' }, allocatable: { [R]: '0' } });
  await clock.advance(5 * 60_000 + 1);
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '0' }, allocatable: { [R]: '0' } });
  const readBack = async () => decodeCheckpoint(await readFile(join(dir, checkpointName), 'utf8'));
  await until(async () => Object.keys((await readBack()).RegisteredDevices ?? {}).length === 0, 'the removed resource out of the checkpoint');
  const after = await readBack();
  assert.equal(after.PodDeviceEntries?.length, 1, 'allocations outlive the plugin');
});

test('init containers hand their devices on; a plugin asking PreStartContainer hears of each start', { skip: process.platform !== 'linux' && 'UNIX sockets' }, async t => {
  const root = await mkdtemp(join(tmpdir(), 'devices-init-'));
  const clock = fakeClock();
  const p = pod('p', [['main', 1], ['side', 0]], [['init', 1]]);
  const active = [p];
  const devices = await startDevices({ rootDir: root, activePods: () => active, onChange: () => undefined, podResourcesGet: true, clock, log: createLogger('error') });
  const dir = devicePluginsDir(root);
  const plugin = await startFakePlugin(join(dir, 'x.sock'), { devices: [dev('d1'), dev('d2')], preStartRequired: true, respond: ids => ({ devices: ids.map(id => ({ containerPath: `/dev/${id}`, hostPath: `/dev/null`, permissions: 'rw' })), annotations: { 'example.com/ids': ids.join(',') } }) });
  t.after(async () => { plugin.stop(); await devices.stop(); await rm(root, { recursive: true, force: true }); });
  await plugin.register(join(dir, 'agent.sock'), R);
  await until(() => devices.manager.capacity().capacity[R] === '2', 'devices');
  assert.deepEqual(await devices.manager.admit(p), { admit: true });
  const initIds = devices.manager.podDevices('p').get('init')!.get(R)!.map(d => d.ID);
  const mainIds = devices.manager.podDevices('p').get('main')!.get(R)!.map(d => d.ID);
  assert.deepEqual(mainIds, initIds, 'the init container\'s device passes to the container after it');
  assert.deepEqual(plugin.allocations, [initIds, mainIds], 'each container\'s own Allocate, the second for the reused device');
  const opts = await devices.manager.runOptions(p, p.spec.containers[0]!);
  assert.deepEqual(plugin.preStarts, [mainIds]);
  assert.deepEqual(opts?.devices, [{ containerPath: `/dev/${mainIds[0]}`, hostPath: '/dev/null', permissions: 'rw' }]);
  assert.deepEqual(opts?.annotations, { 'example.com/ids': mainIds[0] });
  assert.equal(await devices.manager.runOptions(p, p.spec.containers[1]!), undefined);
  // a pod that runs without having been admitted here (its allocation lost): its devices are allocated when a container starts
  const q = pod('q', [['main', 1]]);
  active.push(q);
  const qOpts = await devices.manager.runOptions(q, q.spec.containers[0]!);
  assert.equal(qOpts?.devices.length, 1);
  assert.equal(plugin.allocations.length, 3);
});
