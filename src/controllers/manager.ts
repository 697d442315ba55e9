// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import type { Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { startNamespaceController } from './namespace.ts';
import { startNodeLifecycleController } from './node-lifecycle/lifecycle.ts';
import { startTaintEvictionController } from './node-lifecycle/taint-eviction.ts';
import { startStatefulSetController } from './statefulset/controller.ts';
import { startDaemonSetController } from './daemonset/controller.ts';
import { workloadPodInformer, type WorkloadPod } from './workload-pods.ts';

/** settings from the command line that controllers read */
export interface ControllerSettings {
  /** --node-monitor-grace-period */
  nodeMonitorGracePeriodMs?: number;
  /** --node-monitor-period */
  nodeMonitorPeriodMs?: number;
}

/** informers the process already runs, for controllers to use instead of their own */
export interface SharedInformers {
  /** every pod, as podInformer keeps it */
  pods?: Informer;
  /** every pod, as the StatefulSet and DaemonSet controllers keep them (workloadPodView); made on first use when not given */
  workloadPods?: Informer<WorkloadPod>;
}

type Starter = (client: Client, log: Logger, settings: ControllerSettings, shared: SharedInformers) => { stop(): void };

interface Entry { start: Starter; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { start: (c, l) => startNamespaceController(c, l) },
  nodelifecycle: { start: (c, l, s) => startNodeLifecycleController(c, l, { gracePeriodMs: s.nodeMonitorGracePeriodMs, monitorPeriodMs: s.nodeMonitorPeriodMs }) },
  'taint-eviction-controller': { start: (c, l, _s, shared) => startTaintEvictionController(c, l, { pods: shared.pods }) },
  statefulset: { start: (c, l, _s, shared) => startStatefulSetController(c, l, { pods: shared.workloadPods }) },
  daemonset: { start: (c, l, _s, shared) => startDaemonSetController(c, l, { pods: shared.workloadPods }) },
};

/** the names kube-controller-manager also accepts for these */
const aliases: Record<string, string> = {
  'namespace-controller': 'namespace',
  'node-lifecycle-controller': 'nodelifecycle',
  'statefulset-controller': 'statefulset',
  'daemonset-controller': 'daemonset',
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
  const shared: SharedInformers = { ...opts.shared };
  const selected = selectControllers(opts.enabled);
  // the StatefulSet and DaemonSet controllers share one informer over every pod
  let madeWorkloadPods: Informer<WorkloadPod> | undefined;
  if (!shared.workloadPods && selected.some(n => workloadPodReaders.has(n))) shared.workloadPods = madeWorkloadPods = workloadPodInformer(opts.client, opts.log.with({ component: 'workload-pods-informer' }));
  const running = selected.map(name => {
    const l = opts.log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(opts.client, l, opts.settings ?? {}, shared);
  });
  madeWorkloadPods?.start();
  return { stop() { for (const r of running) r.stop(); madeWorkloadPods?.stop(); } };
}

/** the controllers that read shared.workloadPods */
const workloadPodReaders = new Set(['statefulset', 'daemonset']);
