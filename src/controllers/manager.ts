// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import type { Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { startGarbageCollector } from './garbage-collector/garbage-collector.ts';
import { startNamespaceController } from './namespace.ts';
import { startNodeLifecycleController } from './node-lifecycle/lifecycle.ts';
import { startTaintEvictionController } from './node-lifecycle/taint-eviction.ts';
import { startDeploymentController } from './deployment/controller.ts';
import { ownedPodInformer, type OwnedPod } from './owned-pods.ts';
import { startReplicaController } from './replicaset/controller.ts';
import { replicaSetKind, replicationControllerKind } from './replicaset/kinds.ts';
import { startCronJobController } from './cronjob/cronjob-controller.ts';
import { startJobController } from './job/job-controller.ts';
import { startTtlAfterFinishedController } from './ttl-after-finished.ts';
import { startStatefulSetController } from './statefulset/controller.ts';
import { startDaemonSetController } from './daemonset/controller.ts';

/** settings from the command line that controllers read */
export interface ControllerSettings {
  /** --node-monitor-grace-period */
  nodeMonitorGracePeriodMs?: number;
  /** --node-monitor-period */
  nodeMonitorPeriodMs?: number;
  /** --concurrent-gc-syncs */
  concurrentGCSyncs?: number;
}

/** informers the process already runs, for controllers to use instead of their own */
export interface SharedInformers {
  /** every pod, as podInformer keeps it */
  pods?: Informer;
  /** every pod, as the workload controllers keep them (ownedPodView: ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets); made on first use when not given */
  ownedPods?: Informer<OwnedPod>;
}

type Starter = (client: Client, log: Logger, settings: ControllerSettings, shared: SharedInformers) => { stop(): void };

interface Entry { start: Starter; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { start: (c, l) => startNamespaceController(c, l) },
  nodelifecycle: { start: (c, l, s) => startNodeLifecycleController(c, l, { gracePeriodMs: s.nodeMonitorGracePeriodMs, monitorPeriodMs: s.nodeMonitorPeriodMs }) },
  'taint-eviction-controller': { start: (c, l, _s, shared) => startTaintEvictionController(c, l, { pods: shared.pods }) },
  'garbage-collector-controller': { start: (c, l, s) => startGarbageCollector(c, l, { workers: s.concurrentGCSyncs }) },
  replicaset: { start: (c, l, _s, shared) => startReplicaController(c, l, { kind: replicaSetKind, pods: shared.ownedPods }) },
  replicationcontroller: { start: (c, l, _s, shared) => startReplicaController(c, l, { kind: replicationControllerKind, pods: shared.ownedPods }) },
  deployment: { start: (c, l) => startDeploymentController(c, l) },
  'job-controller': { start: (c, l) => startJobController(c, l) },
  'cronjob-controller': { start: (c, l) => startCronJobController(c, l) },
  'ttl-after-finished-controller': { start: (c, l) => startTtlAfterFinishedController(c, l) },
  statefulset: { start: (c, l, _s, shared) => startStatefulSetController(c, l, { pods: shared.ownedPods }) },
  daemonset: { start: (c, l, _s, shared) => startDaemonSetController(c, l, { pods: shared.ownedPods }) },
};

/** the names kube-controller-manager also accepts for these */
const aliases: Record<string, string> = {
  'namespace-controller': 'namespace',
  'node-lifecycle-controller': 'nodelifecycle',
  'garbagecollector': 'garbage-collector-controller',
  'replicaset-controller': 'replicaset',
  'replicationcontroller-controller': 'replicationcontroller',
  'deployment-controller': 'deployment',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
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
  // the workload controllers share one informer over every pod, started once they all listen
  let madeOwnedPods: Informer<OwnedPod> | undefined;
  if (!shared.ownedPods) shared.ownedPods = madeOwnedPods = ownedPodInformer(opts.client, opts.log.with({ component: 'owned-pods-informer' }));
  const running = selectControllers(opts.enabled).map(name => {
    const l = opts.log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(opts.client, l, opts.settings ?? {}, shared);
  });
  // an informer no controller listens to is never started
  if (madeOwnedPods && selectControllers(opts.enabled).some(n => podOwners.has(n))) madeOwnedPods.start();
  return { stop() { for (const r of running) r.stop(); madeOwnedPods?.stop(); } };
}

/** the controllers that read shared.ownedPods */
const podOwners = new Set(['replicaset', 'replicationcontroller', 'statefulset', 'daemonset']);
