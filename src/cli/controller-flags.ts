// The controller flags `orch server` and `orch controller-manager` share, named as
// kube-controller-manager names them.

import { parseDuration } from '../api/duration.ts';
import { controllerNames, selectControllers, type ControllerSettings } from '../controllers/manager.ts';
import { flag, type Flag } from './command.ts';

export const controllerFlags: Record<string, Flag> = {
  controllers: { type: 'string', default: '*', description: `control loops to run: "*" (all), "name", "-name" (comma-separated; known: ${controllerNames().join(', ')})` },
  'node-monitor-grace-period': { type: 'string', default: '50s', description: 'how long a node may go unheard before its conditions turn Unknown and it is tainted unreachable' },
  'node-monitor-period': { type: 'string', default: '5s', description: 'how often node health is checked' },
  'local-path-dir': { type: 'string', default: '/var/lib/orch/storage', description: 'the directory on each node under which the local-path provisioner makes volumes' },
};

export function controllerOptions(values: Record<string, string | boolean | undefined>): { enabled: string[]; settings: ControllerSettings } {
  return {
    enabled: flag(() => selectControllers(String(values.controllers).split(',').filter(Boolean))),
    settings: {
      nodeMonitorGracePeriodMs: flag(() => parseDuration(String(values['node-monitor-grace-period']))),
      nodeMonitorPeriodMs: flag(() => parseDuration(String(values['node-monitor-period']))),
      localPathDir: String(values['local-path-dir']),
    },
  };
}
