// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { startGarbageCollector } from './garbage-collector/garbage-collector.ts';
import { startEndpointsController } from './endpoints/endpoints-controller.ts';
import { startEndpointSliceController } from './endpoints/endpointslice-controller.ts';
import { startMirroringController } from './endpoints/mirroring-controller.ts';
import { startHpaController } from './autoscaler/hpa-controller.ts';
import { startDisruptionController } from './disruption/disruption-controller.ts';
import { createInformerFactory, type InformerFactory } from './informer-factory.ts';
import { startRootCAPublisher } from './serviceaccounts/root-ca-publisher.ts';
import { startClusterRoleAggregationController } from './clusterrole-aggregation.ts';
import { startServiceAccountController } from './serviceaccounts/serviceaccount-controller.ts';
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
import { startVolumeBinder } from './volumes/binder.ts';
import { startLocalPathProvisioner } from './volumes/local-path.ts';
import { startPvcProtectionController, startPvProtectionController } from './volumes/protection.ts';
import { startEphemeralVolumeController } from './volumes/ephemeral.ts';
import { startResourceQuotaController } from './resourcequota/controller.ts';
import { startSigningController } from './certificates/signing-controller.ts';
import { startApprovingController } from './certificates/approver.ts';
import { startCleanerController } from './certificates/cleaner.ts';
import type { CertAndKey } from '../pki/certs.ts';

/** settings from the command line that controllers read */
export interface ControllerSettings {
  /** --node-monitor-grace-period */
  nodeMonitorGracePeriodMs?: number;
  /** --node-monitor-period */
  nodeMonitorPeriodMs?: number;
  /** --concurrent-gc-syncs */
  concurrentGCSyncs?: number;
  /** --max-endpoints-per-slice */
  maxEndpointsPerSlice?: number;
  /** the cluster CA (PEM) published in every namespace: --root-ca-file, else the kubeconfig's */
  rootCA?: string;
  /** --horizontal-pod-autoscaler-sync-period */
  hpaSyncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization */
  hpaDownscaleStabilizationMs?: number;
  /** --horizontal-pod-autoscaler-tolerance */
  hpaTolerance?: number;
  /** --resource-quota-sync-period */
  resourceQuotaSyncPeriodMs?: number;
  /** --concurrent-resource-quota-syncs */
  concurrentResourceQuotaSyncs?: number;
  /** --cluster-signing-cert-file/--cluster-signing-key-file: the CA the CSR signers sign with */
  clusterSigning?: CertAndKey;
  /** --cluster-signing-duration */
  clusterSigningDurationMs?: number;
  /** --local-path-dir: where the local-path provisioner puts volumes on each node */
  localPathDir?: string;
}

/** informers the process already runs, for controllers to use instead of their own */
export interface SharedInformers {
  /** every pod, as podInformer keeps it */
  pods?: Informer;
  /** every pod, as the workload controllers keep them (ownedPodView: ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets); made on first use when not given */
  ownedPods?: Informer<OwnedPod>;
  /** whole objects by collection, for controllers that read more of them than podInformer keeps */
  informers?: InformerFactory;
  /** every Job, whole (the job, cronjob and ttl-after-finished controllers read them) */
  jobs?: Informer;
}

type Starter = (client: Client, log: Logger, settings: ControllerSettings, shared: SharedInformers & { informers: InformerFactory }) => { stop(): void };

/**
 * serviceAccount: the account in kube-system the controller acts as when the manager uses
 * service account credentials (its system:controller:<account> role says what it may do)
 */
interface Entry { start: Starter; serviceAccount?: string; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { serviceAccount: 'namespace-controller', start: (c, l) => startNamespaceController(c, l) },
  nodelifecycle: { serviceAccount: 'node-controller', start: (c, l, s) => startNodeLifecycleController(c, l, { gracePeriodMs: s.nodeMonitorGracePeriodMs, monitorPeriodMs: s.nodeMonitorPeriodMs }) },
  'taint-eviction-controller': { serviceAccount: 'taint-eviction-controller', start: (c, l, _s, shared) => startTaintEvictionController(c, l, { pods: shared.pods }) },
  'garbage-collector-controller': { serviceAccount: 'generic-garbage-collector', start: (c, l, s) => startGarbageCollector(c, l, { workers: s.concurrentGCSyncs }) },
  replicaset: { serviceAccount: 'replicaset-controller', start: (c, l, _s, shared) => startReplicaController(c, l, { kind: replicaSetKind, pods: shared.ownedPods }) },
  replicationcontroller: { serviceAccount: 'replication-controller', start: (c, l, _s, shared) => startReplicaController(c, l, { kind: replicationControllerKind, pods: shared.ownedPods }) },
  deployment: { serviceAccount: 'deployment-controller', start: (c, l) => startDeploymentController(c, l) },
  'job-controller': { serviceAccount: 'job-controller', start: (c, l, _s, shared) => startJobController(c, l, { jobs: shared.jobs }) },
  'cronjob-controller': { serviceAccount: 'cronjob-controller', start: (c, l, _s, shared) => startCronJobController(c, l, { jobs: shared.jobs }) },
  'ttl-after-finished-controller': { serviceAccount: 'ttl-after-finished-controller', start: (c, l, _s, shared) => startTtlAfterFinishedController(c, l, { jobs: shared.jobs }) },
  statefulset: { serviceAccount: 'statefulset-controller', start: (c, l, _s, shared) => startStatefulSetController(c, l, { pods: shared.ownedPods }) },
  daemonset: { serviceAccount: 'daemon-set-controller', start: (c, l, _s, shared) => startDaemonSetController(c, l, { pods: shared.ownedPods }) },
  'endpoints-controller': { serviceAccount: 'endpoint-controller', start: (c, l, _s, shared) => startEndpointsController(c, l, { informers: shared.informers }) },
  'endpointslice-controller': { serviceAccount: 'endpointslice-controller', start: (c, l, s, shared) => startEndpointSliceController(c, l, { informers: shared.informers, maxEndpointsPerSlice: s.maxEndpointsPerSlice }) },
  'endpointslice-mirroring-controller': { serviceAccount: 'endpointslicemirroring-controller', start: (c, l, _s, shared) => startMirroringController(c, l, { informers: shared.informers }) },
  'serviceaccount-controller': { serviceAccount: 'service-account-controller', start: (c, l, _s, shared) => startServiceAccountController(c, l, shared.informers) },
  'root-ca-certificate-publisher-controller': { serviceAccount: 'root-ca-cert-publisher', start: (c, l, s, shared) => {
    if (s.rootCA) return startRootCAPublisher(c, l, shared.informers, s.rootCA);
    l.warn('no cluster CA known (--root-ca-file, or certificate-authority data in the kubeconfig): kube-root-ca.crt is not published');
    return { stop() {} };
  } },
  'disruption-controller': { serviceAccount: 'disruption-controller', start: (c, l, _s, shared) => startDisruptionController(c, l, { informers: shared.informers }) },
  'horizontal-pod-autoscaler-controller': { serviceAccount: 'horizontal-pod-autoscaler', start: (c, l, s, shared) => startHpaController(c, l, { informers: shared.informers, syncPeriodMs: s.hpaSyncPeriodMs, downscaleStabilizationMs: s.hpaDownscaleStabilizationMs, tolerance: s.hpaTolerance }) },
  'persistentvolume-binder': { serviceAccount: 'persistent-volume-binder', start: (c, l, _s, shared) => startVolumeBinder(c, l, { pods: shared.pods }) },
  'pvc-protection': { serviceAccount: 'pvc-protection-controller', start: (c, l, _s, shared) => startPvcProtectionController(c, l, { pods: shared.pods }) },
  'pv-protection': { serviceAccount: 'pv-protection-controller', start: (c, l) => startPvProtectionController(c, l) },
  'ephemeral-volume': { serviceAccount: 'ephemeral-volume-controller', start: (c, l, _s, shared) => startEphemeralVolumeController(c, l, { pods: shared.pods }) },
  'local-path-provisioner': { serviceAccount: 'persistent-volume-binder', start: (c, l, s) => startLocalPathProvisioner(c, l, { dir: s.localPathDir }) },
  'resourcequota-controller': { serviceAccount: 'resourcequota-controller', start: (c, l, s, shared) => startResourceQuotaController(c, l, { informers: shared.informers, resyncMs: s.resourceQuotaSyncPeriodMs, workers: s.concurrentResourceQuotaSyncs }) },
  'clusterrole-aggregation-controller': { serviceAccount: 'clusterrole-aggregation-controller', start: (c, l, _s, shared) => startClusterRoleAggregationController(c, l, shared.informers) },
  'certificatesigningrequest-signing-controller': { serviceAccount: 'certificate-controller', start: (c, l, s) => {
    if (s.clusterSigning) return startSigningController(c, l, { ca: s.clusterSigning, maxDurationMs: s.clusterSigningDurationMs });
    l.warn('no signing CA (--cluster-signing-cert-file, --cluster-signing-key-file): certificate signing requests are not signed');
    return { stop() {} };
  } },
  'certificatesigningrequest-approving-controller': { serviceAccount: 'certificate-controller', start: (c, l) => startApprovingController(c, l) },
  'certificatesigningrequest-cleaner-controller': { serviceAccount: 'certificate-controller', start: (c, l) => startCleanerController(c, l) },
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
  endpoint: 'endpoints-controller',
  endpointslice: 'endpointslice-controller',
  endpointslicemirroring: 'endpointslice-mirroring-controller',
  serviceaccount: 'serviceaccount-controller',
  'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  disruption: 'disruption-controller',
  horizontalpodautoscaling: 'horizontal-pod-autoscaler-controller',
  'persistentvolume-binder-controller': 'persistentvolume-binder',
  'persistentvolumeclaim-protection-controller': 'pvc-protection',
  'persistentvolume-protection-controller': 'pv-protection',
  'ephemeral-volume-controller': 'ephemeral-volume',
  'clusterrole-aggregation': 'clusterrole-aggregation-controller',
  resourcequota: 'resourcequota-controller',
  csrsigning: 'certificatesigningrequest-signing-controller',
  csrapproving: 'certificatesigningrequest-approving-controller',
  csrcleaner: 'certificatesigningrequest-cleaner-controller',
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
  /** --use-service-account-credentials: the client acting as a controller's service account (absent: every controller uses `client`) */
  clientFor?: (serviceAccount: string) => Client;
}

/** controllers that read every Job: when several run, they share one informer */
const readJobs = new Set(['job-controller', 'cronjob-controller', 'ttl-after-finished-controller']);

export function startControllers(opts: StartControllersOptions): { stop(): void } {
  const names = selectControllers(opts.enabled);
  const informers = opts.shared?.informers ?? createInformerFactory(opts.client, opts.log.with({ component: 'informers' }));
  const shared = { ...opts.shared, informers };
  // the workload controllers share one informer over every pod, started once they all listen
  let madeOwnedPods: Informer<OwnedPod> | undefined;
  if (!shared.ownedPods) shared.ownedPods = madeOwnedPods = ownedPodInformer(opts.client, opts.log.with({ component: 'owned-pods-informer' }));
  // the job, cronjob and ttl-after-finished controllers share one informer over whole Jobs
  let ownJobs: Informer | undefined;
  if (!shared.jobs && names.filter(n => readJobs.has(n)).length > 1) {
    ownJobs = shared.jobs = createInformer(opts.client, '/apis/batch/v1/jobs', { log: opts.log });
  }
  // one client per service account, shared by the controllers that run as it
  const accountClients = new Map<string, Client>();
  const clientOf = (entry: Entry): Client => {
    if (!opts.clientFor || !entry.serviceAccount) return opts.client;
    let c = accountClients.get(entry.serviceAccount);
    if (!c) accountClients.set(entry.serviceAccount, c = opts.clientFor(entry.serviceAccount));
    return c;
  };
  const running = names.map(name => {
    const l = opts.log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(clientOf(controllers[name]!), l, opts.settings ?? {}, shared);
  });
  // informers started once every controller has its handlers on them; one no controller listens to never is
  if (madeOwnedPods && names.some(n => podOwners.has(n))) madeOwnedPods.start();
  ownJobs?.start();
  return {
    stop() {
      for (const r of running) r.stop();
      madeOwnedPods?.stop();
      ownJobs?.stop();
      if (!opts.shared?.informers) informers.stop();
      for (const c of accountClients.values()) c.close();
    },
  };
}

/** the controllers that read shared.ownedPods */
const podOwners = new Set(['replicaset', 'replicationcontroller', 'statefulset', 'daemonset']);
