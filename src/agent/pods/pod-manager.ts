// The agent's pod machinery, wired: sources feed pod workers; the PLEG and the probers wake
// them; the syncer acts through the CRI and reports through the status manager. Runtime pods
// that no source knows (left from before a restart, or deleted while the agent was away) are
// stopped and removed once the sources have been read.

import type { Logger } from '../../api/log.ts';
import { eventRecorder } from '../../client/events.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import type { CriClient } from '../cri/client.ts';
import { restartBackoff } from './backoff.ts';
import type { SandboxSettings } from './cri-config.ts';
import { apiObjectSource } from './object-source.ts';
import { startPleg, type Pleg } from './pleg.ts';
import { startPodSources } from './pod-sources.ts';
import { deletePodObject, podSyncer, type ContainerPolicy, type PodCondition, type SandboxPolicy, type SyncerDeps } from './pod-syncer.ts';
import { startPodWorkers, type PodWorkers } from './pod-workers.ts';
import { startProber } from './prober.ts';
import { resourceStateFile } from './resource-state.ts';
import { startImagePullManager } from '../images/pull-manager.ts';
import { pullRecordStore } from '../images/pull-records.ts';
import type { VerificationPolicy } from '../images/pull-policy.ts';
import { snapshotReader, type SnapshotReader } from './runtime-snapshot.ts';
import { startStatusManager } from './status-manager.ts';
import type { Pod, PodStatus } from './types.ts';
import { removeOrphanedPodDirs } from './volumes.ts';

export interface PodManagerOptions {
  cri: CriClient;
  client?: Client;
  nodeName: string;
  nodeUid(): string | undefined;
  nodeIPs(): string[];
  rootDir: string;
  sandbox: SandboxSettings;
  staticPodPath?: string;
  fileCheckMs: number;
  resyncMs: number;
  maxContainerRestartPeriodMs?: number;
  containerPolicy?: ContainerPolicy;
  sandboxPolicy?: SandboxPolicy;
  admit?: SyncerDeps['admit'];
  deviceOptions?: SyncerDeps['deviceOptions'];
  /** pod cgroups by QoS class, as cgroupsPerQOS asks */
  podCgroups?: SyncerDeps['podCgroups'];
  nodeAllocatable?: SyncerDeps['nodeAllocatable'];
  /** keep allocated_pods_state and actuated_pods_state (the InPlacePodVerticalScaling gate) */
  resourceCheckpoints?: boolean;
  /** keep image pull records and verify pods' credentials for present images (the KubeletEnsureSecretPulledImages gate) */
  imagePullVerification?: { policy: VerificationPolicy; allowlist: string[] };
  clock: Clock;
  log: Logger;
}

export interface PodManager {
  workers: PodWorkers;
  reader: SnapshotReader;
  pleg: Pleg;
  /** the status last computed for a pod (what its log request is answered from) */
  statusOf(uid: string): PodStatus | undefined;
  /** called with each status computed locally (written to the API or not); returns the unsubscribe */
  onStatus(listener: (pod: Pod, status: PodStatus) => void): () => void;
  /**
   * The local view is whole: the sources were read, the runtime relisted, and every pod known
   * then has a status computed here. Stays true once reached (a restart starts over).
   */
  synced(): boolean;
  /**
   * Ends a pod for the node's sake (eviction, node shutdown): a Warning event with the reason
   * (unless `noEvent`: the kubelet records none for a shutdown), its containers stopped within
   * the grace period given, its status Failed with the reason and message. Resolves once its
   * containers have stopped.
   */
  fail(pod: Pod, gracePeriodSeconds: number, why: { reason: string; message: string; condition?: PodCondition; noEvent?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export async function startPodManager(o: PodManagerOptions): Promise<PodManager> {
  const log = o.log.with({ component: 'pods' });
  const now = () => o.clock.now();
  const recorder = o.client ? eventRecorder(o.client, 'kubelet', log, o.nodeName, now) : undefined;
  const event = (pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string) =>
    recorder?.record({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, type, reason, message);
  let runtimeName = 'containerd';
  try {
    runtimeName = (await o.cri.version({}, 5000)).runtimeName || runtimeName;
  } catch { /* the runtime may come up later; containerd is the usual name */ }

  const reader = snapshotReader(o.cri, now);
  const resourceState = o.resourceCheckpoints
    ? { allocated: await resourceStateFile(o.rootDir, 'allocated_pods_state'), actuated: await resourceStateFile(o.rootDir, 'actuated_pods_state') }
    : undefined;
  const imagePulls = o.imagePullVerification ? await startImagePullManager({
    store: await pullRecordStore(o.rootDir), ...o.imagePullVerification, now, log: log.with({ component: 'image-pulls' }),
    listImages: async () => ((await o.cri.listImages({})).images ?? []).map(i => ({ id: i.id, repoTags: i.repoTags ?? [], repoDigests: i.repoDigests ?? [] })),
  }) : undefined;
  let workers: PodWorkers | undefined;
  const prober = startProber({ cri: o.cri, clock: o.clock, wake: uid => workers?.wake(uid), event });
  const statusListeners = new Set<(pod: Pod, status: PodStatus) => void>();
  const written = startStatusManager(o.client, log);
  const status: typeof written = { ...written, set(pod, s) { written.set(pod, s); for (const l of statusListeners) l(pod, s); } };
  const syncer = podSyncer({
    cri: o.cri, reader, client: o.client, objects: apiObjectSource(o.client), status, prober,
    backoff: restartBackoff(now, 10_000, o.maxContainerRestartPeriodMs ?? 300_000),
    clock: o.clock, log, event, rootDir: o.rootDir, sandbox: o.sandbox,
    nodeIPs: o.nodeIPs, runtimeName: () => runtimeName,
    containerPolicy: o.containerPolicy, sandboxPolicy: o.sandboxPolicy, admit: o.admit, deviceOptions: o.deviceOptions, resourceState, imagePulls, nodeAllocatable: o.nodeAllocatable,
    // the simulated runtime's containers are no host processes: no host cgroups for them
    podCgroups: runtimeName === 'orch-runtime-sim' ? undefined : o.podCgroups,
  });
  workers = startPodWorkers({
    syncer, clock: o.clock, log, resyncMs: o.resyncMs,
    onRemoved: o.client ? pod => deletePodObject(o.client!, pod) : undefined,
  });
  const w = workers;

  let sourcesSynced = false;
  let relisted = false;
  let whole = false;
  const orphans = new Set<string>();
  async function removeOrphan(uid: string): Promise<void> {
    if (orphans.has(uid)) return;
    orphans.add(uid);
    try {
      const rt = await reader.readPod(uid);
      if (!rt || w.has(uid)) return;
      log.info('removing a pod no source knows', { uid, pod: `${rt.namespace}/${rt.name}` });
      await syncer.syncTerminatingPod({ metadata: { name: rt.name, namespace: rt.namespace, uid }, spec: { containers: [], terminationGracePeriodSeconds: 2 } }, 2);
      await syncer.syncTerminatedPod({ metadata: { name: rt.name, namespace: rt.namespace, uid }, spec: { containers: [] } }, true);
    } catch (err) {
      log.warn('orphaned pod not removed', { uid, err: String(err) });
    } finally {
      orphans.delete(uid);
    }
  }

  const pleg = startPleg({
    reader, clock: o.clock, log,
    onEvents(events, snap) {
      for (const uid of new Set(events.map(e => e.uid))) {
        if (w.has(uid)) w.wake(uid);
        else if (sourcesSynced && snap.pods.has(uid)) void removeOrphan(uid);
      }
    },
  });

  const sources = startPodSources({ client: o.client, nodeName: o.nodeName, nodeUid: o.nodeUid, staticPodPath: o.staticPodPath, fileCheckMs: o.fileCheckMs, sink: w, clock: o.clock, log });
  void sources.synced().then(async () => {
    sourcesSynced = true;
    const snap = await pleg.relist();
    relisted = snap !== undefined;
    for (const uid of snap?.pods.keys() ?? []) if (!w.has(uid)) void removeOrphan(uid);
    // directories (and volume mounts) of pods neither a source nor the runtime knows; only with the runtime's answer in hand
    if (snap) await removeOrphanedPodDirs(o.rootDir, uid => w.has(uid) || snap.pods.has(uid), (uid, err) => log.warn('orphaned pod directory not removed', { uid, err: String(err) }));
  });

  return {
    workers: w,
    reader,
    pleg,
    statusOf: uid => status.get(uid),
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    synced() {
      whole ||= sourcesSynced && relisted && w.pods().every(p => status.get(p.metadata.uid) !== undefined);
      return whole;
    },
    async fail(pod, grace, why) {
      if (!why.noEvent) event(pod, 'Warning', why.reason, why.message);
      syncer.failPod(pod.metadata.uid, why);
      await w.terminate(pod.metadata.uid, grace);
    },
    async stop() {
      sources.stop();
      pleg.stop();
      prober.stop();
      w.stop();
      await status.flush();
      await Promise.all([resourceState?.allocated.flush(), resourceState?.actuated.flush()]);
    },
  };
}
