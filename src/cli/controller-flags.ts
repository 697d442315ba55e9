// The controller flags `orch server` and `orch controller-manager` share, named as
// kube-controller-manager names them.

import { parseDuration } from '../api/duration.ts';
import { controllerNames, selectControllers, type ControllerSettings } from '../controllers/manager.ts';
import { flag, type Flag } from './command.ts';

export const controllerFlags: Record<string, Flag> = {
  controllers: { type: 'string', default: '*', description: `control loops to run: "*" (all), "name", "-name" (comma-separated; known: ${controllerNames().join(', ')})` },
  'node-monitor-grace-period': { type: 'string', default: '50s', description: 'how long a node may go unheard before its conditions turn Unknown and it is tainted unreachable' },
  'node-monitor-period': { type: 'string', default: '5s', description: 'how often node health is checked' },
  'concurrent-gc-syncs': { type: 'string', default: '20', description: 'objects the garbage collector looks at in parallel' },
  'enable-garbage-collector': { type: 'string', default: 'true', description: 'run the garbage collector (false: turn it off whatever --controllers says)' },
};

function positiveInt(name: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1) throw new Error(`invalid value "${v}" for flag --${name}: must be a positive integer`);
  return n;
}

function bool(name: string, v: string): boolean {
  if (/^(1|t|true|T|TRUE|True)$/.test(v)) return true;
  if (/^(0|f|false|F|FALSE|False)$/.test(v)) return false;
  throw new Error(`invalid boolean value "${v}" for flag --${name}`);
}

export function controllerOptions(values: Record<string, string | boolean | undefined>): { enabled: string[]; settings: ControllerSettings } {
  return {
    enabled: flag(() => {
      const spec = String(values.controllers).split(',').filter(Boolean);
      // as kube-controller-manager: the garbage collector off overrides --controllers
      if (!bool('enable-garbage-collector', String(values['enable-garbage-collector'] ?? 'true'))) spec.unshift('-garbage-collector-controller');
      return selectControllers(spec);
    }),
    settings: {
      concurrentGCSyncs: flag(() => positiveInt('concurrent-gc-syncs', String(values['concurrent-gc-syncs'] ?? '20'))),
      nodeMonitorGracePeriodMs: flag(() => parseDuration(String(values['node-monitor-grace-period']))),
      nodeMonitorPeriodMs: flag(() => parseDuration(String(values['node-monitor-period']))),
    },
  };
}
