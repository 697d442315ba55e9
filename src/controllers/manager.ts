// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { startCronJobController } from './cronjob/cronjob-controller.ts';
import { startJobController } from './job/job-controller.ts';
import { startNamespaceController } from './namespace.ts';
import { startNodeLifecycleController } from './node-lifecycle/lifecycle.ts';
import { startTaintEvictionController } from './node-lifecycle/taint-eviction.ts';
import { startTtlAfterFinishedController } from './ttl-after-finished.ts';

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
  /** every Job, whole (the job, cronjob and ttl-after-finished controllers read them) */
  jobs?: Informer;
}

type Starter = (client: Client, log: Logger, settings: ControllerSettings, shared: SharedInformers) => { stop(): void };

interface Entry { start: Starter; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { start: (c, l) => startNamespaceController(c, l) },
  nodelifecycle: { start: (c, l, s) => startNodeLifecycleController(c, l, { gracePeriodMs: s.nodeMonitorGracePeriodMs, monitorPeriodMs: s.nodeMonitorPeriodMs }) },
  'taint-eviction-controller': { start: (c, l, _s, shared) => startTaintEvictionController(c, l, { pods: shared.pods }) },
  'job-controller': { start: (c, l, _s, shared) => startJobController(c, l, { jobs: shared.jobs }) },
  'cronjob-controller': { start: (c, l, _s, shared) => startCronJobController(c, l, { jobs: shared.jobs }) },
  'ttl-after-finished-controller': { start: (c, l, _s, shared) => startTtlAfterFinishedController(c, l, { jobs: shared.jobs }) },
};

/** the names kube-controller-manager also accepts for these */
const aliases: Record<string, string> = {
  'namespace-controller': 'namespace',
  'node-lifecycle-controller': 'nodelifecycle',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
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

/** controllers that read every Job: when several run, they share one informer */
const readJobs = new Set(['job-controller', 'cronjob-controller', 'ttl-after-finished-controller']);

export function startControllers(opts: StartControllersOptions): { stop(): void } {
  const names = selectControllers(opts.enabled);
  const shared: SharedInformers = { ...opts.shared };
  let ownJobs: Informer | undefined;
  if (!shared.jobs && names.filter(n => readJobs.has(n)).length > 1) {
    ownJobs = shared.jobs = createInformer(opts.client, '/apis/batch/v1/jobs', { log: opts.log });
  }
  const running = names.map(name => {
    const l = opts.log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(opts.client, l, opts.settings ?? {}, shared);
  });
  // started once every controller has its handlers on it
  ownJobs?.start();
  return { stop() { for (const r of running) r.stop(); ownJobs?.stop(); } };
}
