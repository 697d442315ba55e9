// The three things a pod worker does, as the kubelet's syncer names them: SyncPod (make the
// runtime match the spec: sandbox, init containers, containers, restarts, status),
// SyncTerminatingPod (stop every container within the grace period, then the sandbox) and
// SyncTerminatedPod (clean up; a deleted pod is removed from the runtime, its files and the API).

import { isSidecar } from './restart-policy.ts';
import { runHook } from './lifecycle-hooks.ts';
import { newTerminationLog } from './termination-message.ts';
import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from '../../api/log.ts';
import { ApiError } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import type { CriClient } from '../cri/client.ts';
import type { RestartBackoff } from './backoff.ts';
import { ContainerStartError } from './config-errors.ts';
import { containerConfig, podLogDir, sandboxConfig, type ContainerInputs, type SandboxSettings } from './cri-config.ts';
import { containerEnv } from './env.ts';
import { ensureImage } from './images.ts';
import type { ObjectSource } from './object-source.ts';
import { backoffKey, computePodActions, type StartAction, type Waiting } from './pod-actions.ts';
import { podStatus } from './pod-status.ts';
import type { Prober, RunningContainer } from './prober.ts';
import type { SnapshotReader } from './runtime-snapshot.ts';
import type { StatusManager } from './status-manager.ts';
import type { Container, Pod, PodStatus, RuntimePod } from './types.ts';
import type { CriInput, CriLinuxPodSandboxConfig, CriPodSandboxConfig } from '../cri/generated/cri-types.ts';
import { podResources, type ResourceStateFile } from './resource-state.ts';
import { prepareVolumes, removePodDir, type PreparedVolume } from './volumes.ts';
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
  admit?: (pod: Pod) => { admit: true } | { admit: false; reason: string; message: string };
  runtimeHandler?: string;
  /** the resource checkpoints, when InPlacePodVerticalScaling is on */
  resourceState?: { allocated: ResourceStateFile; actuated: ResourceStateFile };
}

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
  syncTerminatedPod(pod: Pod, remove: boolean): Promise<void>;
  /**
   * The pod ends Failed for a reason the node decided (eviction): every status written from
   * now on, while it terminates and after, keeps this phase, reason, message and condition.
   */
  failPod(uid: string, why: { reason: string; message: string; condition?: PodCondition }): void;
}

export type PodCondition = NonNullable<PodStatus['conditions']>[number];

/** the pod conditions the agent writes; every other condition belongs to another writer */
const agentConditions = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']);

export function podSyncer(d: SyncerDeps): PodSyncer {
  /** why containers wait, kept from the last attempt to start them */
  const startErrors = new Map<string, Map<string, Waiting>>();
  /** pods refused before they ran: their Failed status stays as written */
  const rejected = new Set<string>();
  /** pods the node failed on purpose (evicted), with what their status says */
  const failures = new Map<string, { reason: string; message: string; condition?: PodCondition }>();

  const sleepFor = (ms: number) => new Promise<void>(resolve => d.clock.after(ms, resolve));

  /**
   * Stops a container as the kubelet does: its preStop hook first (when `preStop`), within the
   * grace period, then the runtime's stop with what is left of it (at least 2 s): the signal,
   * then a kill at the deadline.
   */
  async function stopContainer(pod: Pod, id: string, name: string, grace: number, message?: string, preStop = true): Promise<unknown> {
    d.event(pod, 'Normal', 'Killing', message ?? `Stopping container ${name}`);
    const c = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find(x => x.name === name);
    let left = grace;
    if (preStop && c?.lifecycle?.preStop && grace > 0) {
      const started = d.clock.now();
      const ip = (await d.reader.readPod(pod.metadata.uid))?.sandboxes[0]?.ip ?? '';
      const failure = await runHook(c.lifecycle.preStop, { cri: d.cri, containerId: id, container: c, podIP: ip }, pod, grace, sleepFor);
      if (failure) d.event(pod, 'Warning', 'FailedPreStopHook', failure);
      left = Math.max(2, grace - Math.ceil((d.clock.now() - started) / 1000));
    }
    return d.cri.stopContainer({ containerId: id, timeout: left }).catch(err => d.log.warn('stopping a container failed', { pod: pod.metadata.name, container: name, err: String(err) }));
  }

  async function startOne(pod: Pod, a: StartAction, sandboxId: string, sbConfig: CriInput<CriPodSandboxConfig>, podIPs: string[], volumes: Map<string, PreparedVolume>): Promise<void> {
    const c = a.container;
    await ensureImage(d.cri, pod, c, d.backoff, () => d.clock.now(), (t, r, m) => d.event(pod, t, r, m));
    const envs = await containerEnv(pod, c, d.objects, { podIPs, hostIPs: d.nodeIPs() });
    const policy = d.containerPolicy ? await d.containerPolicy(pod, c) : {};
    const terminationLog = await newTerminationLog(d.rootDir, pod.metadata.uid, c.name);
    const config = containerConfig({ pod, container: c, restartCount: a.restartCount, envs, volumes, terminationLog, ...policy });
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
    d.resourceState!.actuated.set(pod.metadata.uid, entry);
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
   * Stops a pod's containers as the kubelet does: the regular ones (and plain init containers)
   * together, then the sidecars (restartable init containers) one by one in reverse order, each
   * with what is left of the grace period, so that they serve the others until those are gone.
   */
  async function stopAll(pod: Pod, runtime: RuntimePod | undefined, grace: number): Promise<void> {
    const started = d.clock.now();
    const live = (runtime?.containers ?? []).filter(c => c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED');
    const sidecars = (pod.spec.initContainers ?? []).filter(isSidecar).map(c => c.name);
    await Promise.all(live.filter(c => !sidecars.includes(c.name)).map(c => stopContainer(pod, c.id, c.name, grace)));
    for (const name of [...sidecars].reverse()) {
      const left = grace === 0 ? 0 : Math.max(2, grace - Math.ceil((d.clock.now() - started) / 1000));
      await Promise.all(live.filter(c => c.name === name).map(c => stopContainer(pod, c.id, c.name, left)));
    }
    for (const s of runtime?.sandboxes ?? []) if (s.state === 'SANDBOX_READY') await d.cri.stopPodSandbox({ podSandboxId: s.id });
  }

  return {
    async syncPod(pod) {
      const uid = pod.metadata.uid;
      let runtime = await d.reader.readPod(uid);
      const now = d.clock.now();
      const verdict = runtime ? { admit: true as const } : d.admit?.(pod) ?? { admit: true as const };
      if (!verdict.admit) {
        rejected.add(uid);
        d.event(pod, 'Warning', verdict.reason, verdict.message);
        d.status.set(pod, { ...(pod.status ?? {}), phase: 'Failed', reason: verdict.reason, message: verdict.message, startTime: pod.status?.startTime ?? rfc3339(now) });
        return { terminal: true };
      }
      const actions = computePodActions({ pod, runtime, now, backoff: (k, since) => d.backoff.check(k, since), probeFailures: d.prober.failures(uid) });
      d.resourceState?.allocated.set(uid, podResources(pod));
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
      const extraLinux = d.sandboxPolicy ? d.sandboxPolicy(pod) : {};
      const sbConfig = sandboxConfig(pod, actions.sandboxAttempt, d.sandbox, extraLinux);
      let volumes = new Map<string, PreparedVolume>();
      try {
        volumes = await prepareVolumes(pod, d.rootDir, d.objects);
      } catch (err) {
        if (!(err instanceof ContainerStartError)) throw err;
        for (const a of actions.start) errors.set(a.container.name, { reason: err.reason, message: err.message });
        d.event(pod, 'Warning', 'FailedMount', err.message);
        writeStatus(pod, runtime, new Map([...errors, ...actions.waiting]), false);
        return { terminal: false, requeueAfterMs: 10_000 };
      }
      if (actions.createSandbox) {
        try {
          await mkdir(podLogDir(d.sandbox.podLogsDir, pod), { recursive: true });
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
      for (const a of actions.start) {
        try {
          await startOne(pod, a, sandboxId!, sbConfig, podIPs, volumes);
          errors.delete(a.container.name);
          if (d.resourceState) actuated(pod, a.container);
          if (a.since !== undefined) d.backoff.next(a.backoffKey, now);
        } catch (err) {
          if (!(err instanceof ContainerStartError)) throw err;
          errors.set(a.container.name, { reason: err.reason, message: err.message });
          const imageProblem = ['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull'].includes(err.reason);
          // image problems have had their events from the image step
          if (!imageProblem) d.event(pod, 'Warning', 'Failed', `Error: ${err.message}`);
          requeue = Math.min(requeue ?? Infinity, imageProblem ? 10_000 : 5_000);
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

      runtime = actions.start.length || actions.kill.length || actions.createSandbox ? await d.reader.readPod(uid) : runtime;
      const running: RunningContainer[] = [];
      const all = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
      for (const rc of runtime?.containers ?? []) {
        if (rc.state !== 'CONTAINER_RUNNING' || rc.sandboxId !== runtime!.sandboxes[0]?.id) continue;
        const c = all.find(x => x.name === rc.name);
        if (c) running.push({ id: rc.id, container: c, startedAtMs: toMs(rc.startedAt) || now });
      }
      d.prober.sync(pod, running, podIPs[0] ?? '');
      const held = new Map(actions.waiting);
      for (const [k, v] of errors) if (!running.some(r => r.container.name === k)) held.set(k, v);
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

    async syncTerminatedPod(pod, remove) {
      const uid = pod.metadata.uid;
      await d.status.flush(uid);
      if (!remove) return;
      const runtime = await d.reader.readPod(uid);
      for (const c of runtime?.containers ?? []) await d.cri.removeContainer({ containerId: c.id }).catch(() => undefined);
      for (const s of runtime?.sandboxes ?? []) await d.cri.removePodSandbox({ podSandboxId: s.id }).catch(() => undefined);
      await removePodDir(d.rootDir, uid).catch(() => undefined);
      // the pod's container logs go with it, as the kubelet removes them
      await rm(podLogDir(d.sandbox.podLogsDir, pod), { recursive: true, force: true }).catch(err => d.log.warn('pod log directory not removed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      d.resourceState?.allocated.remove(uid);
      d.resourceState?.actuated.remove(uid);
      d.backoff.forget(`${uid}/`);
      startErrors.delete(uid);
      rejected.delete(uid);
      failures.delete(uid);
      actuatedByPod.delete(uid);
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
