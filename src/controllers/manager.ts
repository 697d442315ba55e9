// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import type { Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { startNamespaceController } from './namespace.ts';
import { startNodeLifecycleController } from './node-lifecycle/lifecycle.ts';
import { startTaintEvictionController } from './node-lifecycle/taint-eviction.ts';
import { startVolumeBinder } from './volumes/binder.ts';
import { startLocalPathProvisioner } from './volumes/local-path.ts';
import { startPvcProtectionController, startPvProtectionController } from './volumes/protection.ts';
import { startEphemeralVolumeController } from './volumes/ephemeral.ts';

/** settings from the command line that controllers read */
export interface ControllerSettings {
  /** --node-monitor-grace-period */
  nodeMonitorGracePeriodMs?: number;
  /** --node-monitor-period */
  nodeMonitorPeriodMs?: number;
  /** --local-path-dir: where the local-path provisioner puts volumes on each node */
  localPathDir?: string;
}

/** informers the process already runs, for controllers to use instead of their own */
export interface SharedInformers {
  /** every pod, as podInformer keeps it */
  pods?: Informer;
}

type Starter = (client: Client, log: Logger, settings: ControllerSettings, shared: SharedInformers) => { stop(): void };

interface Entry { start: Starter; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { start: (c, l) => startNamespaceController(c, l) },
  nodelifecycle: { start: (c, l, s) => startNodeLifecycleController(c, l, { gracePeriodMs: s.nodeMonitorGracePeriodMs, monitorPeriodMs: s.nodeMonitorPeriodMs }) },
  'taint-eviction-controller': { start: (c, l, _s, shared) => startTaintEvictionController(c, l, { pods: shared.pods }) },
  'persistentvolume-binder': { start: (c, l, _s, shared) => startVolumeBinder(c, l, { pods: shared.pods }) },
  'pvc-protection': { start: (c, l, _s, shared) => startPvcProtectionController(c, l, { pods: shared.pods }) },
  'pv-protection': { start: (c, l) => startPvProtectionController(c, l) },
  'ephemeral-volume': { start: (c, l, _s, shared) => startEphemeralVolumeController(c, l, { pods: shared.pods }) },
  'local-path-provisioner': { start: (c, l, s) => startLocalPathProvisioner(c, l, { dir: s.localPathDir }) },
};

/** the names kube-controller-manager also accepts for these */
const aliases: Record<string, string> = {
  'namespace-controller': 'namespace',
  'node-lifecycle-controller': 'nodelifecycle',
  'persistentvolume-binder-controller': 'persistentvolume-binder',
  'persistentvolumeclaim-protection-controller': 'pvc-protection',
  'persistentvolume-protection-controller': 'pv-protection',
  'ephemeral-volume-controller': 'ephemeral-volume',
};

export function controllerNames(): string[] {
  return Object.keys(controllers);
}

function enabled(name: string, spec: string[]): boolean {
  let star = false;
  for (const s of spec) {
    if (s === name) return true;
    if (s === `-${name}`) return false;
    if (s === '*') star = true;
  }
  return star && !controllers[name]!.offByDefault;
}

/** the controllers a --controllers list turns on, in table order */
export function selectControllers(spec: string[]): string[] {
  const canonical = (s: string) => (s.startsWith('-') ? `-${aliases[s.slice(1)] ?? s.slice(1)}` : aliases[s] ?? s);
  const items = spec.map(s => canonical(s.trim())).filter(Boolean);
  for (const s of items) {
    const name = s.startsWith('-') ? s.slice(1) : s;
    if (s !== '*' && !controllers[name]) throw new Error(`unknown controller "${name}" (known: ${controllerNames().join(', ')})`);
  }
  return controllerNames().filter(n => enabled(n, items));
}

export interface StartControllersOptions {
  client: Client;
  /** --controllers items: names, `-name`, `*` */
  enabled: string[];
  log: Logger;
  settings?: ControllerSettings;
  shared?: SharedInformers;
}

export function startControllers(opts: StartControllersOptions): { stop(): void } {
  const running = selectControllers(opts.enabled).map(name => {
    const l = opts.log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(opts.client, l, opts.settings ?? {}, opts.shared ?? {});
  });
  return { stop() { for (const r of running) r.stop(); } };
}
