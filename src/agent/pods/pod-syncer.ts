// The three things a pod worker does, as the kubelet's syncer names them: SyncPod (make the
// runtime match the spec: sandbox, init containers, containers, restarts, status),
// SyncTerminatingPod (stop every container within the grace period, then the sandbox) and
// SyncTerminatedPod (clean up; a deleted pod is removed from the runtime, its files and the API).

import { runHook } from './lifecycle-hooks.ts';
import { terminationOrdering, terminationPrereqs, type TerminationOrdering } from './termination-order.ts';
import { newTerminationLog } from './termination-message.ts';
import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from '../../api/log.ts';
import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import type { CriClient } from '../cri/client.ts';
import type { RestartBackoff } from './backoff.ts';
import { configError, ContainerStartError } from './config-errors.ts';
import { withDevices, type DeviceRunOptions } from '../devices/pod-devices.ts';
import { containerConfig, linuxResources, podLogDir, sandboxConfig, sandboxDns, type ContainerInputs, type SandboxSettings } from './cri-config.ts';
import { etcHostsMount } from './etc-hosts.ts';
import { containerEnv } from './env.ts';
import { podServiceEnv } from './service-env.ts';
import { ensureImage, type PullFailures } from './images.ts';
import { podPullSecrets } from './pull-secrets.ts';
import type { ImagePullManager } from '../images/pull-manager.ts';
import type { ObjectSource } from './object-source.ts';
import { backoffKey, computePodActions, type StartAction, type Waiting } from './pod-actions.ts';
import { ephemeralToStart } from './ephemeral-containers.ts';
import { podStatus } from './pod-status.ts';
import type { Prober, RunningContainer } from './prober.ts';
import type { SnapshotReader } from './runtime-snapshot.ts';
import type { StatusManager } from './status-manager.ts';
import type { Container, Pod, PodStatus, RuntimePod } from './types.ts';
import type { CriInput, CriLinuxPodSandboxConfig, CriPodSandboxConfig } from '../cri/generated/cri-types.ts';
import { podResources, type ResourceStateFile } from './resource-state.ts';
import { podCgroupParent, podCgroupResources, type PodCgroupResources, type PodCgroupSettings } from './pod-cgroups.ts';
import { infeasibleResize, resizeActions } from './resize-actions.ts';
import { ensurePodCgroup, removePodCgroup, type CgroupFs } from './pod-cgroup-files.ts';
import { podQosClass } from '../../api/qos.ts';
import { containerMounts, prepareVolumes, removePodDir, unmountPodVolumes, VolumeSetupError, type PreparedVolume } from './volumes.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { rfc3339 } from '../../api/time.ts';

export type PodEventFn = (pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** per-container additions the node's policies make (seccomp, swap); may refuse a container */
export type ContainerPolicy = (pod: Pod, c: Container) => Promise<Pick<ContainerInputs, 'securityContext' | 'resources'>>;
/** sandbox additions (sysctls, pod seccomp) */
export type SandboxPolicy = (pod: Pod) => CriInput<CriLinuxPodSandboxConfig>;

export interface SyncerDeps {
  cri: CriClient;
  reader: SnapshotReader;
  client?: Client;
  objects: ObjectSource;
  status: StatusManager;
  prober: Prober;
  backoff: RestartBackoff;
  clock: Clock;
  log: Logger;
  event: PodEventFn;
  rootDir: string;
  sandbox: SandboxSettings;
  nodeIPs: () => string[];
  runtimeName: () => string;
  containerPolicy?: ContainerPolicy;
  sandboxPolicy?: SandboxPolicy;
  /** whether the node takes the pod at all (sysctls); asked before anything runs */
  admit?: (pod: Pod) => Admission | Promise<Admission>;
  /** what the container's devices add to its runtime configuration (devices/), read before each start */
  deviceOptions?: (pod: Pod, c: Container) => Promise<DeviceRunOptions | undefined>;
  runtimeHandler?: string;
  /** pod cgroups by QoS class (cgroupsPerQOS with the cgroupfs driver): where, and the host's hierarchy */
  podCgroups?: { settings: PodCgroupSettings; fs: CgroupFs };
  /** the node's allocatable resources: tmpfs sizes, limits a container leaves unset in the downward API, resizes that can never fit (Infeasible) */
  nodeAllocatable?: () => Record<string, unknown> | undefined;
  /** the resource checkpoints, when InPlacePodVerticalScaling is on */
  resourceState?: { allocated: ResourceStateFile; actuated: ResourceStateFile };
  /** the image pull records and their policy, when KubeletEnsureSecretPulledImages is on */
  imagePulls?: ImagePullManager;
}

export type Admission = { admit: true } | { admit: false; reason: string; message: string };

export interface SyncResult {
  /** the pod has finished for good (every container done, nothing restarts) */
  terminal: boolean;
  /** sync again after this long (back-off ends) */
  requeueAfterMs?: number;
}

const toMs = (ns: number | undefined) => (ns ? Math.floor(ns / 1e6) : 0);

export interface PodSyncer {
  syncPod(pod: Pod): Promise<SyncResult>;
  syncTerminatingPod(pod: Pod, gracePeriodSeconds: number): Promise<void>;
  /** a termination under way gets a shorter grace period: its containers are stopped again with it */
  shortenTermination(pod: Pod, gracePeriodSeconds: number): Promise<void>;
  syncTerminatedPod(pod: Pod, remove: boolean): Promise<void>;
  /**
   * The pod ends Failed for a reason the node decided (eviction): every status written from
   * now on, while it terminates and after, keeps this phase, reason, message and condition.
   */
  failPod(uid: string, why: { reason: string; message: string; condition?: PodCondition }): void;
}

export type PodCondition = NonNullable<PodStatus['conditions']>[number];

/** the pod conditions the agent writes; every other condition belongs to another writer */
const agentConditions = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodResizeInProgress', 'PodResizePending']);

/** a spec with each container's resources replaced by those recorded for it */
function withResources(spec: Pod['spec'], had: ReturnType<typeof podResources>): Pod['spec'] {
  const put = (c: Container) => (had[c.name] ? { ...c, resources: { requests: had[c.name]!.requests, limits: had[c.name]!.limits } } : c);
  return { ...spec, containers: spec.containers.map(put), initContainers: spec.initContainers?.map(put) };
}

/** the larger of two pod cgroup settings, field by field (no limit is the largest) */
function widest(a: PodCgroupResources, b: PodCgroupResources): PodCgroupResources {
  const out: PodCgroupResources = { cpuShares: Math.max(a.cpuShares, b.cpuShares) };
  if (a.cpuQuota && b.cpuQuota) { out.cpuQuota = Math.max(a.cpuQuota, b.cpuQuota); out.cpuPeriod = a.cpuPeriod; }
  if (a.memoryLimitBytes && b.memoryLimitBytes) out.memoryLimitBytes = Math.max(a.memoryLimitBytes, b.memoryLimitBytes);
  return out;
}

export function podSyncer(d: SyncerDeps): PodSyncer {
  /** why containers wait, kept from the last attempt to start them */
  const startErrors = new Map<string, Map<string, Waiting>>();
  /** pods refused before they ran: their Failed status stays as written */
  const rejected = new Set<string>();
  /** failed image pulls, for the ImagePullBackOff message */
  const pullFailures: PullFailures = new Map();
  /** pods the node failed on purpose (evicted), with what their status says */
  const failures = new Map<string, { reason: string; message: string; condition?: PodCondition }>();

  const sleepFor = (ms: number) => new Promise<void>(resolve => d.clock.after(ms, resolve));

  /**
   * Stops a container as the kubelet does: its preStop hook first (when `preStop`), within the
   * grace period, then (in a pod's termination) its turn after the containers it outlives, then
   * the runtime's stop with what is left of it (at least 2 s): the signal, then a kill at the
   * deadline.
   */
  async function stopContainer(pod: Pod, id: string, name: string, grace: number, message?: string, preStop = true, ordering?: TerminationOrdering): Promise<unknown> {
    d.event(pod, 'Normal', 'Killing', message ?? `Stopping container ${name}`);
    const c = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find(x => x.name === name);
    let left = grace;
    if (preStop && c?.lifecycle?.preStop && grace > 0) {
      const started = d.clock.now();
      const ip = (await d.reader.readPod(pod.metadata.uid))?.sandboxes[0]?.ip ?? '';
      const failure = await runHook(c.lifecycle.preStop, { cri: d.cri, containerId: id, container: c, podIP: ip }, pod, grace, sleepFor);
      if (failure) d.event(pod, 'Warning', 'FailedPreStopHook', failure);
      // whole seconds, truncated, as the kubelet counts the hook's time
      left -= Math.floor((d.clock.now() - started) / 1000);
    }
    if (ordering && left > 0) {
      // whole seconds waited come off the grace period, as the kubelet truncates them
      const started = d.clock.now();
      await ordering.waitForTurn(name, left * 1000);
      left -= Math.floor((d.clock.now() - started) / 1000);
    }
    try {
      return await d.cri.stopContainer({ containerId: id, timeout: grace > 0 ? Math.max(2, left) : 0 }).catch(err => d.log.warn('stopping a container failed', { pod: pod.metadata.name, container: name, err: String(err) }));
    } finally {
      ordering?.terminated(name);
    }
  }

  async function startOne(pod: Pod, a: StartAction, sandboxId: string, sbConfig: CriInput<CriPodSandboxConfig>, podIPs: string[], volumes: Map<string, PreparedVolume>, pidTarget?: string): Promise<void> {
    const c = a.container;
    await ensureImage(d.cri, pod, c, d.backoff, () => d.clock.now(), (t, r, m) => d.event(pod, t, r, m), pullFailures, { manager: d.imagePulls, secrets: p => podPullSecrets(d.objects, p, d.event) });
    const envs = await containerEnv(pod, c, d.objects, { podIPs, hostIPs: d.nodeIPs(), nodeAllocatable: d.nodeAllocatable?.(), serviceEnv: await podServiceEnv(d.objects, pod) });
    const mounts = await containerMounts(c, volumes, envs);
    const hosts = await etcHostsMount(d.rootDir, pod, podIPs, d.sandbox.clusterDomain, (c.volumeMounts ?? []).some(m => m.mountPath === '/etc/hosts'));
    if (hosts) mounts.push(hosts);
    const policy = d.containerPolicy ? await d.containerPolicy(pod, c) : {};
    const devices = d.deviceOptions ? await d.deviceOptions(pod, c).catch(err => { throw configError((err as Error).message); }) : undefined;
    const terminationLog = await newTerminationLog(d.rootDir, pod.metadata.uid, c.name);
    const config = withDevices(containerConfig({ pod, container: c, restartCount: a.restartCount, envs, mounts, terminationLog, ...policy, ...(pidTarget ? { pidTarget } : {}) }), devices);
    let containerId: string;
    try {
      ({ containerId } = await d.cri.createContainer({ podSandboxId: sandboxId, config, sandboxConfig: sbConfig }));
    } catch (err) {
      throw new ContainerStartError('CreateContainerError', (err as Error).message);
    }
    d.event(pod, 'Normal', 'Created', `Created container: ${c.name}`);
    try {
      await d.cri.startContainer({ containerId });
    } catch (err) {
      throw new ContainerStartError('RunContainerError', (err as Error).message);
    }
    d.event(pod, 'Normal', 'Started', `Started container ${c.name}`);
    const postStart = c.lifecycle?.postStart;
    if (postStart) {
      // the container runs meanwhile; a failed hook kills it and it restarts as its policy says
      const failure = await runHook(postStart, { cri: d.cri, containerId, container: c, podIP: podIPs[0] ?? '' }, pod, pod.spec.terminationGracePeriodSeconds ?? 30, sleepFor);
      if (failure) {
        d.event(pod, 'Warning', 'FailedPostStartHook', failure);
        await stopContainer(pod, containerId, c.name, pod.spec.terminationGracePeriodSeconds ?? 30, `FailedPostStartHook`, false);
        throw new ContainerStartError('PostStartHookError', failure);
      }
    }
  }

  /** what the runtime now runs a container with, recorded per pod */
  const actuatedByPod = new Map<string, ReturnType<typeof podResources>>();
  function actuated(pod: Pod, c: Container): void {
    const entry = { ...(actuatedByPod.get(pod.metadata.uid) ?? {}), [c.name]: { requests: c.resources?.requests, limits: c.resources?.limits } };
    actuatedByPod.set(pod.metadata.uid, entry);
    d.resourceState?.actuated.set(pod.metadata.uid, entry);
  }

  /** why the last in-place resize of a pod failed, for its PodResizeInProgress condition */
  const resizeErrors = new Map<string, string>();
  /** why a pod's resize waits (Infeasible), for its PodResizePending condition */
  const resizePending = new Map<string, string>();

  /**
   * In-place resize: running containers whose CPU or memory changed are updated through the
   * runtime (or restarted, as their resizePolicy asks); the pod cgroup first takes the larger of
   * the old and new limits, so neither step is refused for going below what the other holds.
   */
  async function resizeRunning(pod: Pod, runtime: RuntimePod | undefined, grace: number, stopped: Set<string>): Promise<void> {
    const uid = pod.metadata.uid;
    const had = actuatedByPod.get(uid) ?? {};
    const sandboxId = runtime?.sandboxes[0]?.id;
    const steps = resizeActions(pod, (runtime?.containers ?? []).filter(c => c.sandboxId === sandboxId && !stopped.has(c.id)), had);
    resizePending.delete(uid);
    // nothing (left) to change: a resize that failed before has been done since, or replaced by a restart
    if (!steps.update.length && !steps.restart.length) { resizeErrors.delete(uid); d.resourceState?.allocated.set(uid, podResources(pod)); return; }
    const node = d.nodeAllocatable?.();
    const infeasible = node ? infeasibleResize(pod, { cpuMilli: Math.round((parseQuantity(node['cpu'] ?? 0) ?? 0) * 1000), memoryBytes: parseQuantity(node['memory'] ?? 0) ?? 0 }) : undefined;
    if (infeasible) {
      if (!resizePending.has(uid)) d.event(pod, 'Warning', 'ResizeInfeasible', `Pod resize Infeasible: ${infeasible}`);
      resizePending.set(uid, infeasible);
      return;
    }
    d.resourceState?.allocated.set(uid, podResources(pod));
    const cgroup = d.podCgroups ? podCgroupParent(pod, d.podCgroups.settings, podQosClass(pod)) : undefined;
    const before = podCgroupResources({ ...pod, spec: withResources(pod.spec, had) });
    const after = podCgroupResources(pod);
    const fs = d.podCgroups?.fs;
    const cgroupFailed = (err: unknown) => d.log.warn('pod cgroup not resized', { pod: pod.metadata.name, err: String(err) });
    if (cgroup && fs) await ensurePodCgroup(fs, cgroup, widest(before, after)).catch(cgroupFailed);
    resizeErrors.delete(uid);
    for (const u of steps.update) {
      try {
        const extra = d.containerPolicy ? (await d.containerPolicy(pod, u.container)).resources : undefined;
        await d.cri.updateContainerResources({ containerId: u.id, linux: { ...linuxResources(u.container), ...(extra ?? {}) } });
        actuated(pod, u.container);
      } catch (err) {
        resizeErrors.set(uid, (err as Error).message);
        d.event(pod, 'Warning', 'ResizeError', `Resize of container ${u.container.name} failed: ${(err as Error).message}`);
      }
    }
    await Promise.all(steps.restart.map(r => stopContainer(pod, r.id, r.container.name, grace, r.message)));
    if (cgroup && fs) await ensurePodCgroup(fs, cgroup, resizeErrors.has(uid) ? widest(before, after) : after).catch(cgroupFailed);
  }

  function writeStatus(pod: Pod, runtime: RuntimePod | undefined, waiting: Map<string, Waiting>, initFailed: boolean, terminating = false): PodStatus {
    const uid = pod.metadata.uid;
    // the status last computed reads as the API would give it back, except the conditions other
    // writers own (readiness gates, DisruptionTarget, PodScheduled), which the API's copy has newest
    const cached = d.status.get(uid) as Pod['status'] | undefined;
    const theirs = (pod.status?.conditions ?? []).filter(c => !agentConditions.has(c.type));
    const previous = cached ? { ...cached, conditions: [...(cached.conditions ?? []).filter(c => agentConditions.has(c.type)), ...theirs] } : pod.status;
    const status = podStatus({
      pod: { ...pod, status: previous },
      runtime,
      waiting,
      ready: d.prober.ready(uid),
      started: d.prober.started(uid),
      actuated: actuatedByPod.get(uid),
      resizeError: resizeErrors.get(uid),
      resizePending: resizePending.get(uid),
      initFailed,
      terminating,
      nodeIPs: d.nodeIPs(),
      runtimeName: d.runtimeName(),
      now: d.clock.now(),
    });
    const failed = failures.get(uid);
    if (failed) {
      Object.assign(status, { phase: 'Failed', reason: failed.reason, message: failed.message });
      if (failed.condition) status.conditions = [...(status.conditions ?? []).filter(c => c?.type !== failed.condition!.type), failed.condition];
    }
    d.status.set(pod, status);
    return status;
  }

  /**
   * Stops a pod's containers as the kubelet does: every preStop hook at once, then the regular
   * containers (and plain init containers), then the sidecars (restartable init containers) one
   * by one in reverse order, each with what is left of the grace period, so that they serve the
   * others until those are gone (termination-order.ts).
   */
  async function stopAll(pod: Pod, runtime: RuntimePod | undefined, grace: number): Promise<void> {
    const live = (runtime?.containers ?? []).filter(c => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED');
    // sidecars stop after the regular containers, the last declared first
    const ordering = terminationOrdering(terminationPrereqs(pod, live.map(c => c.name)), d.clock);
    await Promise.all(live.map(c => stopContainer(pod, c.id, c.name, grace, undefined, true, ordering)));
    for (const s of runtime?.sandboxes ?? []) if (s.state === 'SANDBOX_READY') await d.cri.stopPodSandbox({ podSandboxId: s.id });
  }

  return {
    async syncPod(pod) {
      const uid = pod.metadata.uid;
      let runtime = await d.reader.readPod(uid);
      const now = d.clock.now();
      const verdict = runtime ? { admit: true as const } : (await d.admit?.(pod)) ?? { admit: true as const };
      if (!verdict.admit) {
        rejected.add(uid);
        d.event(pod, 'Warning', verdict.reason, verdict.message);
        d.status.set(pod, { ...(pod.status ?? {}), phase: 'Failed', reason: verdict.reason, message: verdict.message, startTime: pod.status?.startTime ?? rfc3339(now) });
        return { terminal: true };
      }
      // what the running containers were started with: recorded, or (a pod adopted with no record) its spec
      if (!actuatedByPod.has(uid) && runtime?.containers.length) actuatedByPod.set(uid, d.resourceState?.actuated.get(uid) ?? podResources(pod));
      const actions = computePodActions({ pod, runtime, now, backoff: (k, since) => d.backoff.check(k, since), probeFailures: d.prober.failures(uid), started: d.prober.started(uid) });
      // admitted with what it asks for; later changes are allocated once a resize is found feasible
      if (!d.resourceState?.allocated.get(uid)) d.resourceState?.allocated.set(uid, podResources(pod));
      const errors = startErrors.get(uid) ?? new Map<string, Waiting>();
      startErrors.set(uid, errors);
      const grace = pod.spec.terminationGracePeriodSeconds ?? 30;

      if (actions.killPod) await stopAll(pod, runtime, grace);
      await Promise.all(actions.kill.map(k => stopContainer(pod, k.id, k.name, grace, k.message)));
      for (const id of actions.prune) await d.cri.removeContainer({ containerId: id }).catch(() => undefined);
      if (actions.terminal) {
        runtime = await d.reader.readPod(uid);
        writeStatus(pod, runtime, new Map(), actions.initFailed);
        return { terminal: true };
      }

      let sandboxId = actions.sandboxId;
      const cgroupParent = d.podCgroups ? podCgroupParent(pod, d.podCgroups.settings, podQosClass(pod)) : undefined;
      const extraLinux = { ...(d.sandboxPolicy ? d.sandboxPolicy(pod) : {}), ...(cgroupParent ? { cgroupParent } : {}) };
      const sbConfig = sandboxConfig(pod, actions.sandboxAttempt, d.sandbox, extraLinux);
      let volumes = new Map<string, PreparedVolume>();
      try {
        volumes = await prepareVolumes(pod, d.rootDir, d.objects, { podIPs: [], hostIPs: d.nodeIPs(), nodeAllocatable: d.nodeAllocatable?.() }, m => d.event(pod, 'Warning', 'FailedMount', m));
      } catch (err) {
        if (!(err instanceof VolumeSetupError)) throw err;
        for (const a of actions.start) errors.set(a.container.name, { reason: err.reason, message: err.message });
        for (const m of err.failedMounts) d.event(pod, 'Warning', 'FailedMount', m);
        if (err.message) d.event(pod, 'Warning', 'Failed', `Error: ${err.message}`);
        writeStatus(pod, runtime, new Map([...errors, ...actions.waiting]), false);
        return { terminal: false, requeueAfterMs: 10_000 };
      }
      if (actions.createSandbox) {
        try {
          await mkdir(podLogDir(d.sandbox.podLogsDir, pod), { recursive: true });
          // the pod's cgroup and its limits, before the runtime puts the sandbox in it
          // (best effort: without it the runtime makes the path itself, only the pod-level limits are missing)
          if (cgroupParent) await ensurePodCgroup(d.podCgroups!.fs, cgroupParent, podCgroupResources(pod)).catch(err => d.log.warn('pod cgroup not set up', { pod: pod.metadata.name, cgroup: cgroupParent, err: String(err) }));
          for (const [reason, message] of sandboxDns(pod, d.sandbox).warnings) d.event(pod, 'Warning', reason, message);
          ({ podSandboxId: sandboxId } = await d.cri.runPodSandbox({ config: sbConfig, runtimeHandler: d.runtimeHandler ?? '' }));
        } catch (err) {
          d.event(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${(err as Error).message}`);
          writeStatus(pod, runtime, new Map(actions.waiting), false);
          return { terminal: false, requeueAfterMs: 5_000 };
        }
      }
      const sb = sandboxId ? await d.cri.podSandboxStatus({ podSandboxId: sandboxId }).catch(() => undefined) : undefined;
      const podIPs = pod.spec.hostNetwork ? d.nodeIPs() : [sb?.status?.network?.ip, ...(sb?.status?.network?.additionalIps ?? []).map(x => x.ip)].filter((ip): ip is string => !!ip);

      let requeue: number | undefined;
      // ephemeral containers first, as the kubelet starts them: a pod stuck initializing can be debugged
      const ephemeral = actions.createSandbox || actions.killPod ? [] : ephemeralToStart(pod, runtime, sandboxId);
      for (const e of ephemeral) {
        try {
          await startOne(pod, { container: e.container, init: false, restartCount: 0, backoffKey: backoffKey(pod, e.container.name) }, sandboxId!, sbConfig, podIPs, volumes, e.targetId);
          errors.delete(e.container.name);
        } catch (err) {
          if (!(err instanceof ContainerStartError)) throw err;
          // tried again on the next sync until the runtime has it; it never restarts after that
          errors.set(e.container.name, { reason: err.reason, message: err.message });
          if (!['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull'].includes(err.reason)) d.event(pod, 'Warning', 'Failed', `Error: ${err.message}`);
          requeue = Math.min(requeue ?? Infinity, err.retryAfterMs !== undefined ? Math.max(100, err.retryAfterMs) : 5_000);
        }
      }
      for (const a of actions.start) {
        // a restart lengthens the next back-off whether or not it starts, as the kubelet counts
        // it when it decides to restart: a container that cannot start at all loops back off too
        if (a.since !== undefined) d.backoff.next(a.backoffKey, now);
        try {
          await startOne(pod, a, sandboxId!, sbConfig, podIPs, volumes);
          errors.delete(a.container.name);
          actuated(pod, a.container);
        } catch (err) {
          if (!(err instanceof ContainerStartError)) throw err;
          errors.set(a.container.name, { reason: err.reason, message: err.message });
          const imageProblem = ['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull'].includes(err.reason);
          // image problems have had their events from the image step
          if (!imageProblem) d.event(pod, 'Warning', 'Failed', `Error: ${err.message}`);
          requeue = Math.min(requeue ?? Infinity, err.retryAfterMs !== undefined ? Math.max(100, err.retryAfterMs) : imageProblem ? 10_000 : 5_000);
          // init containers run in order: a failure holds back the rest
          if (a.init) break;
        }
      }
      for (const name of actions.waiting.keys()) {
        const rc = runtime?.containers.find(c => c.name === name);
        const left = d.backoff.check(backoffKey(pod, name), toMs(rc?.finishedAt) || now).remainingMs;
        requeue = Math.min(requeue ?? Infinity, Math.max(100, left));
        d.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${uid})`);
      }

      if (!actions.createSandbox) await resizeRunning(pod, runtime, grace, new Set(actions.kill.map(k => k.id)));
      runtime = actions.start.length || actions.kill.length || actions.createSandbox || ephemeral.length ? await d.reader.readPod(uid) : runtime;
      const running: RunningContainer[] = [];
      const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
      for (const rc of runtime?.containers ?? []) {
        if (rc.state !== 'CONTAINER_RUNNING' || rc.sandboxId !== runtime!.sandboxes[0]?.id) continue;
        const c = all.find(x => x.name === rc.name);
        if (c) running.push({ id: rc.id, container: c, startedAtMs: toMs(rc.startedAt) || now });
      }
      d.prober.sync(pod, running, podIPs[0] ?? '');
      // a container held in back-off waits as CrashLoopBackOff, whatever its last start said (that is in lastState)
      const held = new Map<string, Waiting>();
      for (const [k, v] of errors) if (!running.some(r => r.container.name === k)) held.set(k, v);
      for (const [k, v] of actions.waiting) held.set(k, v);
      writeStatus(pod, runtime, held, false);
      return { terminal: false, requeueAfterMs: requeue === Infinity ? undefined : requeue };
    },

    failPod(uid, why) {
      failures.set(uid, why);
    },

    async syncTerminatingPod(pod, grace) {
      const uid = pod.metadata.uid;
      d.prober.forget(uid);
      const runtime = await d.reader.readPod(uid);
      await stopAll(pod, runtime, grace);
      if (!rejected.has(uid)) writeStatus(pod, await d.reader.readPod(uid), new Map(), false, true);
    },

    async shortenTermination(pod, grace) {
      const runtime = await d.reader.readPod(pod.metadata.uid);
      const live = (runtime?.containers ?? []).filter(c => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED');
      // the runtime signals again and kills at the new, earlier deadline; the first stop returns then too
      await Promise.all(live.map(c => d.cri.stopContainer({ containerId: c.id, timeout: grace }).catch(err => d.log.warn('stopping a container failed', { pod: pod.metadata.name, container: c.name, err: String(err) }))));
    },

    async syncTerminatedPod(pod, remove) {
      const uid = pod.metadata.uid;
      await d.status.flush(uid);
      // a finished pod's volumes are unmounted (a memory-backed emptyDir frees its memory), as the kubelet tears them down
      await unmountPodVolumes(d.rootDir, uid).catch(err => d.log.warn('pod volumes not unmounted', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      if (!remove) return;
      const runtime = await d.reader.readPod(uid);
      for (const c of runtime?.containers ?? []) await d.cri.removeContainer({ containerId: c.id }).catch(() => undefined);
      for (const s of runtime?.sandboxes ?? []) await d.cri.removePodSandbox({ podSandboxId: s.id }).catch(() => undefined);
      await removePodDir(d.rootDir, uid).catch(err => d.log.warn('pod directory not removed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      if (d.podCgroups) await removePodCgroup(d.podCgroups.fs, podCgroupParent(pod, d.podCgroups.settings, podQosClass(pod)));
      // the pod's container logs go with it, as the kubelet removes them
      await rm(podLogDir(d.sandbox.podLogsDir, pod), { recursive: true, force: true }).catch(err => d.log.warn('pod log directory not removed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      d.resourceState?.allocated.remove(uid);
      d.resourceState?.actuated.remove(uid);
      d.backoff.forget(`${uid}/`);
      for (const k of pullFailures.keys()) if (k.startsWith(`${uid}/`)) pullFailures.delete(k);
      startErrors.delete(uid);
      rejected.delete(uid);
      failures.delete(uid);
      actuatedByPod.delete(uid);
      resizeErrors.delete(uid);
      resizePending.delete(uid);
      d.status.forget(uid);
    },
  };
}

/** the agent's last step for a deleted pod: remove it from the API once nothing runs */
export async function deletePodObject(client: Client, pod: Pod): Promise<void> {
  const m = pod.metadata;
  try {
    await client.delete(`/api/v1/namespaces/${encodeURIComponent(m.namespace)}/pods/${encodeURIComponent(m.name)}`, { gracePeriodSeconds: 0, preconditions: { uid: m.uid } });
  } catch (err) {
    if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
  }
}
