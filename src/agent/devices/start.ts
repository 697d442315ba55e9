// The node's devices, wired: the device manager with its checkpoint, the registration socket
// `<root-dir>/device-plugins/agent.sock`, the plugin watcher on `<root-dir>/plugins_registry`
// (device plugins registering that way) and the pod resources socket. With orch's default root
// dir (/var/lib/agent) the device plugins directory is the spec's /var/lib/agent/device-plugins;
// another root dir moves it along, so agents side by side (tests, `orch up`) never share it.

import { join } from 'node:path';
import type { Logger } from '../../api/log.ts';
import type { Clock } from '../clock.ts';
import type { Pod } from '../pods/types.ts';
import { startPluginWatcher } from '../plugins/plugin-watcher.ts';
import { startPodResourcesServer } from '../podresources/server.ts';
import { startDeviceManager, type DeviceManager } from './manager.ts';
import { devicePluginHandler, startRegistrationServer } from './registration-server.ts';

export const devicePluginsDir = (rootDir: string) => join(rootDir, 'device-plugins');

export interface Devices {
  manager: DeviceManager;
  stop(): Promise<void>;
}

export async function startDevices(o: {
  rootDir: string;
  /** the node's pods that have not finished; undefined until the pod sources are read */
  activePods: () => Pod[] | undefined;
  onChange: () => void;
  podResourcesGet: boolean;
  clock: Clock;
  log: Logger;
  stopGraceMs?: number;
}): Promise<Devices> {
  const dir = devicePluginsDir(o.rootDir);
  const log = o.log.with({ component: 'devices' });
  const manager = await startDeviceManager({
    dir, clock: o.clock, log, onChange: o.onChange, stopGraceMs: o.stopGraceMs,
    activePods: () => { const pods = o.activePods(); return pods && new Set(pods.map(p => p.metadata.uid)); },
  });
  const registration = await startRegistrationServer({ dir, manager, log });
  const watcher = await startPluginWatcher({ rootDir: o.rootDir, handlers: { DevicePlugin: devicePluginHandler(manager) }, log });
  const podResources = await startPodResourcesServer({
    rootDir: o.rootDir,
    log,
    source: {
      activePods: () => o.activePods() ?? [],
      devices: uid => manager.podDevices(uid),
      allocatable: () => manager.allocatable(),
      getEnabled: () => o.podResourcesGet,
    },
  });
  return {
    manager,
    async stop() {
      watcher.stop();
      await podResources.stop();
      await registration.stop();
      manager.stop();
    },
  };
}
