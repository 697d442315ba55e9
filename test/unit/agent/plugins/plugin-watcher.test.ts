import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/api/log.ts';
import { startDevices } from '../../../../src/agent/devices/start.ts';
import { fakeClock } from '../fake-clock.ts';
import { startFakePlugin, until } from '../devices/fake-plugin.ts';

const R = 'example.com/watched';

test('plugins_registry: a device plugin\'s socket registers it (GetInfo, then NotifyRegistrationStatus), its removal deregisters it; CSI and bad plugins hear why not', { skip: process.platform !== 'linux' && 'UNIX sockets' }, async t => {
  const root = await mkdtemp(join(tmpdir(), 'devices-watch-'));
  const devices = await startDevices({ rootDir: root, activePods: () => [], onChange: () => undefined, podResourcesGet: true, clock: fakeClock(), log: createLogger('error') });
  const reg = join(root, 'plugins_registry');
  const started: Array<{ stop(): void }> = [];
  t.after(async () => { for (const p of started) p.stop(); await devices.stop(); await rm(root, { recursive: true, force: true }); });

  const good = await startFakePlugin(join(reg, 'watched.sock'), { devices: [{ ID: 'w1', health: 'Healthy' }, { ID: 'w2', health: 'Healthy' }], watcherInfo: { type: 'DevicePlugin', name: R, supportedVersions: ['v1beta1'] } });
  started.push(good);
  await until(() => good.notified.length > 0, 'the registration status');
  assert.deepEqual(good.notified, [{ pluginRegistered: true, error: '' }]);
  await until(() => devices.manager.capacity().capacity[R] === '2', 'the watched plugin\'s devices');

  const csi = await startFakePlugin(join(reg, 'csi.sock'), { devices: [], watcherInfo: { type: 'CSIPlugin', name: 'csi.example.com', supportedVersions: ['1.0.0'] } });
  started.push(csi);
  await until(() => csi.notified.length > 0, 'the CSI plugin\'s status');
  assert.deepEqual(csi.notified, [{ pluginRegistered: false, error: `RegisterPlugin error -- no handler registered for plugin type: CSIPlugin at socket ${join(reg, 'csi.sock')}` }]);

  const old = await startFakePlugin(join(reg, 'old.sock'), { devices: [], watcherInfo: { type: 'DevicePlugin', name: 'example.com/old', supportedVersions: ['v1alpha1'] } });
  started.push(old);
  await until(() => old.notified.length > 0, 'the old plugin\'s status');
  assert.deepEqual(old.notified, [{ pluginRegistered: false, error: 'RegisterPlugin error -- plugin validation failed with err: manager version, v1beta1, is not among plugin supported versions [v1alpha1]' }]);

  const badName = await startFakePlugin(join(reg, 'bad.sock'), { devices: [], watcherInfo: { type: 'DevicePlugin', name: 'gpu', supportedVersions: ['v1beta1'] } });
  started.push(badName);
  await until(() => badName.notified.length > 0, 'the badly named plugin\'s status');
  assert.deepEqual(badName.notified, [{ pluginRegistered: false, error: 'RegisterPlugin error -- plugin validation failed with err: invalid name of device plugin socket: the ResourceName "gpu" is invalid' }]);

  // the socket goes (the plugin still serving on its open connection): the devices are unhealthy
  // at once, and gone for good after the grace
  await rm(good.socket);
  await until(() => devices.manager.capacity().allocatable[R] === '0', 'the deregistration');
  assert.deepEqual(devices.manager.capacity(), { capacity: { [R]: '2' }, allocatable: { [R]: '0' } });
});
