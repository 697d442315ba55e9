// The status the agent reports for a pod, computed from its spec and what the runtime shows:
// phase, conditions, IPs and one status per container, worded as the kubelet words them.
// Pure: times come in, the previous status keeps transition times and startTime stable.

import { isSidecar } from './restart-policy.ts';
import type { Waiting } from './pod-actions.ts';
import type { Container, Pod, PodStatus, RuntimeContainer, RuntimePod, Written } from './types.ts';
import type { CoreV1ContainerState, CoreV1ContainerStatus, CoreV1PodCondition } from '../../schema/generated/types.ts';

type ContainerStatus = Written<CoreV1ContainerStatus>;
type Condition = Written<CoreV1PodCondition>;
import { rfc3339 } from '../../api/time.ts';

export interface StatusInputs {
  pod: Pod;
  runtime: RuntimePod | undefined;
  /** why containers that are not running wait (back-off, image pull, create errors), by name */
  waiting: Map<string, Waiting>;
  /** readiness probe results, by container name (absent: no probe, or not yet known) */
  ready: Map<string, boolean>;
  /** startup probe done, by container name (absent: no startup probe) */
  started: Map<string, boolean>;
  /** the CPU and memory the runtime runs each container with (in-place resize), by name */
  actuated?: Record<string, { requests?: Record<string, string | number>; limits?: Record<string, string | number> }>;
  /** why the last in-place resize failed: PodResizeInProgress with reason Error */
  resizeError?: string;
  /** why a resize waits: PodResizePending with reason Infeasible; the containers keep what they were allocated */
  resizePending?: string;
  /** an init container failed for good */
  initFailed: boolean;
  /** the pod is being stopped: nothing will restart, so finished containers decide the phase */
  terminating?: boolean;
  nodeIPs: string[];
  runtimeName: string;
  now: number;
}

const nsTime = (ns: number | undefined) => (ns ? rfc3339(Math.floor(ns / 1e6)) : undefined);

function newestTwo(rt: RuntimePod | undefined, name: string): [RuntimeContainer | undefined, RuntimeContainer | undefined] {
  const list = (rt?.containers ?? []).filter(c => c.name === name).sort((a, b) => b.createdAt - a.createdAt);
  return [list[0], list[1]];
}

function terminated(rc: RuntimeContainer, runtimeName: string): Written<CoreV1ContainerState> {
  return {
    terminated: {
      exitCode: rc.exitCode ?? 0,
      reason: rc.reason || (rc.exitCode === 0 ? 'Completed' : 'Error'),
      ...(rc.message ? { message: rc.message } : {}),
      // a container that never started (StartError) has the zero time, as the kubelet shows it
      startedAt: nsTime(rc.startedAt) ?? (rc.finishedAt ? '1970-01-01T00:00:00Z' : null),
      finishedAt: nsTime(rc.finishedAt) ?? null,
      containerID: `${runtimeName}://${rc.id}`,
    },
  };
}

interface Built { status: ContainerStatus; running: boolean; ready: boolean; restarting: boolean; exitCode?: number; terminated: boolean; everRan: boolean }

function containerStatus(inp: StatusInputs, c: Container, defaultWaiting: string, sandboxId: string | undefined): Built {
  const [latest, prior] = newestTwo(inp.runtime, c.name);
  const base: ContainerStatus = { name: c.name, image: c.image ?? '', imageID: latest?.imageRef ?? '', restartCount: latest?.restartCount ?? 0 };
  if (latest) base.containerID = `${inp.runtimeName}://${latest.id}`;
  if (latest?.stopSignal) base.stopSignal = latest.stopSignal;
  const held = inp.waiting.get(c.name);
  const current = latest && latest.sandboxId === sandboxId ? latest : undefined;
  if (current?.state === 'CONTAINER_RUNNING') {
    Object.assign(base, resourceStatus(c, inp.actuated?.[c.name], !!inp.resizePending));
    const started = inp.started.get(c.name) ?? true;
    const ready = started && (inp.ready.get(c.name) ?? !c.readinessProbe);
    return {
      status: { ...base, state: { running: { startedAt: nsTime(current.startedAt) ?? rfc3339(inp.now) } }, lastState: prior?.state === 'CONTAINER_EXITED' ? terminated(prior, inp.runtimeName) : {}, ready, started },
      running: true, ready, restarting: false, terminated: false, everRan: true,
    };
  }
  if (current?.state === 'CONTAINER_EXITED' && !held) {
    return {
      status: { ...base, state: terminated(current, inp.runtimeName), lastState: prior?.state === 'CONTAINER_EXITED' ? terminated(prior, inp.runtimeName) : {}, ready: false, started: false },
      running: false, ready: false, restarting: false, exitCode: current.exitCode, terminated: true, everRan: true,
    };
  }
  // waiting: held back, being created, or not yet reached
  const last = latest?.state === 'CONTAINER_EXITED' ? latest : undefined;
  const w = held ?? { reason: defaultWaiting, message: '' };
  return {
    status: { ...base, state: { waiting: { reason: w.reason, ...(w.message ? { message: w.message } : {}) } }, lastState: last ? terminated(last, inp.runtimeName) : {}, ready: false, started: false },
    running: false, ready: false, restarting: !!last, terminated: false, everRan: !!latest,
  };
}

/**
 * Ephemeral containers' statuses, as the kubelet reports them: like a container's, but never
 * ready, without `started` (no probes) and without resources (they may have none).
 */
function ephemeralStatuses(inp: StatusInputs, defaultWaiting: string, sandboxId: string | undefined): ContainerStatus[] {
  return (inp.pod.spec.ephemeralContainers ?? []).map(ec => {
    // its one instance, whichever sandbox it ran in: it is not started again in a new one
    const [latest] = newestTwo(inp.runtime, ec.name);
    const { status } = containerStatus(inp, { name: ec.name, image: ec.image }, defaultWaiting, latest?.sandboxId ?? sandboxId);
    const { started: _started, allocatedResources: _allocated, resources: _resources, ...rest } = status;
    return { ...rest, ready: false };
  });
}

/** cpu and memory only: the resources in-place resize manages */
const cpuMemory = (m: Record<string, string | number> | undefined) => {
  const out = Object.fromEntries(Object.entries(m ?? {}).filter(([k]) => k === 'cpu' || k === 'memory'));
  return Object.keys(out).length ? out : undefined;
};

/** a running container's allocatedResources (its requests) and resources (what the runtime was given) */
function resourceStatus(c: Container, actuated: NonNullable<StatusInputs['actuated']>[string] | undefined, pending: boolean): Partial<ContainerStatus> {
  const out: Partial<ContainerStatus> = {};
  // a pending resize is not allocated yet: the container keeps what it had
  const requests = pending ? actuated?.requests : c.resources?.requests;
  const allocated = requests && Object.keys(requests).length ? requests : undefined;
  if (allocated) out.allocatedResources = allocated as ContainerStatus['allocatedResources'];
  const req = cpuMemory(actuated?.requests), lim = cpuMemory(actuated?.limits);
  if (req || lim) out.resources = { ...(req ? { requests: req } : {}), ...(lim ? { limits: lim } : {}) } as ContainerStatus['resources'];
  return out;
}

function condition(type: string, ok: boolean, reason?: string, message?: string): Condition {
  return { type, status: ok ? 'True' : 'False', lastProbeTime: null, ...(ok || !reason ? {} : { reason }), ...(ok || !message ? {} : { message }) };
}

export function podStatus(inp: StatusInputs): PodStatus {
  const { pod, runtime } = inp;
  const prev = pod.status ?? {};
  // a terminal phase never changes again, and what the finished containers said stays said,
  // whatever the runtime still holds (a removed sandbox, an agent started again)
  if (prev.phase === 'Succeeded' || prev.phase === 'Failed') return prev;
  const sandbox = runtime?.sandboxes[0];
  const sandboxReady = sandbox?.state === 'SANDBOX_READY';
  // containers of the newest sandbox are the current ones, even once it has stopped
  const sandboxId = sandbox?.id;
  const inits = pod.spec.initContainers ?? [];
  const regular = pod.spec.containers;

  const initBuilt = inits.map(c => ({ c, b: containerStatus(inp, c, 'PodInitializing', sandboxId) }));
  const regularEver = regular.some(c => (runtime?.containers ?? []).some(rc => rc.name === c.name && rc.sandboxId === sandboxId));
  const initIncomplete = regularEver ? [] : initBuilt.filter(({ c, b }) => (isSidecar(c) ? !b.running : !(b.terminated && b.exitCode === 0))).map(({ c }) => c.name);
  const initialized = initIncomplete.length === 0;
  // a container still waiting for init containers says so, as the kubelet does
  const regularBuilt = regular.map(c => ({ c, b: containerStatus(inp, c, initialized ? 'ContainerCreating' : 'PodInitializing', sandboxId) }));

  // the phase, as the kubelet reckons it
  let phase: string;
  const policy = inp.terminating ? 'Never' : pod.spec.restartPolicy ?? 'Always';
  if (inp.initFailed) phase = 'Failed';
  else if (!initialized) phase = 'Pending';
  else {
    let running = 0, waiting = 0, stopped = 0, succeeded = 0;
    for (const { b } of regularBuilt) {
      if (b.running) running++;
      else if (b.terminated) { stopped++; if (b.exitCode === 0) succeeded++; }
      else if (b.restarting) stopped++;
      else waiting++;
    }
    if (waiting > 0) phase = 'Pending';
    else if (running > 0) phase = 'Running';
    else if (stopped > 0) phase = policy === 'Always' ? 'Running' : stopped === succeeded ? 'Succeeded' : policy === 'Never' ? 'Failed' : 'Running';
    else phase = 'Pending';
  }
  const terminal = phase === 'Succeeded' || phase === 'Failed';

  const unready = [...initBuilt.filter(({ c }) => isSidecar(c)), ...regularBuilt].filter(({ b }) => !b.ready).map(({ c }) => c.name);
  // readiness gates: conditions other writers set; the pod is Ready only when they are True too
  const gateProblems = (pod.spec.readinessGates ?? []).flatMap(g => {
    const c = (Array.isArray(prev.conditions) ? prev.conditions as Condition[] : []).find(x => x.type === g.conditionType);
    if (!c) return [`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`];
  });
  const ready = terminal ? condition('Ready', false, 'PodCompleted', '')
    : unready.length ? condition('Ready', false, 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`)
    : condition('Ready', gateProblems.length === 0, 'ReadinessGatesNotReady', gateProblems.join(', '));
  // a resize the runtime refused stays in progress with the error, as the kubelet reports it
  const resizing: Condition[] = [
    ...(inp.resizePending ? [{ type: 'PodResizePending', status: 'True', lastProbeTime: null, reason: 'Infeasible', message: inp.resizePending }] : []),
    ...(inp.resizeError ? [{ type: 'PodResizeInProgress', status: 'True', lastProbeTime: null, reason: 'Error', message: inp.resizeError }] : []),
  ];
  const conds: Condition[] = [
    condition('PodReadyToStartContainers', sandboxReady && !terminal),
    condition('Initialized', initialized, 'ContainersNotInitialized', `containers with incomplete status: [${initIncomplete.join(' ')}]`),
    ready,
    terminal ? condition('ContainersReady', false, 'PodCompleted', '') : condition('ContainersReady', unready.length === 0, 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`),
    ...resizing,
  ];
  if (initialized && !inp.initFailed && terminal) conds[1] = condition('Initialized', true);
  const stamp = rfc3339(inp.now);
  const prevConds: Condition[] = Array.isArray(prev.conditions) ? prev.conditions : [];
  for (const c of conds) {
    const before = prevConds.find(p => p.type === c.type);
    c.lastTransitionTime = before && before.status === c.status ? before.lastTransitionTime : stamp;
  }
  // conditions other writers own (PodScheduled, readiness gates, DisruptionTarget) stay
  const owned = new Set(conds.map(c => c.type));
  // (the resize conditions are the agent's too: gone once the resize is done)
  const kept = prevConds.filter(c => !owned.has(c.type) && c.type !== 'PodResizeInProgress' && c.type !== 'PodResizePending');
  // a pod on a node has been scheduled, whoever put it there
  if (!kept.some(c => c.type === 'PodScheduled')) kept.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: stamp });
  const order = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  const rank = (c: Condition) => order.indexOf(c.type ?? '') + 1 || 99;
  const all = [...conds, ...kept].sort((a, b) => rank(a) - rank(b));

  const hostNetwork = !!pod.spec.hostNetwork;
  const podIPs = hostNetwork ? inp.nodeIPs : sandboxReady && sandbox!.ip ? [sandbox!.ip, ...(sandbox!.additionalIps ?? [])] : [];
  const out: PodStatus = {
    ...(prev.observedGeneration !== undefined || pod.metadata.generation !== undefined ? { observedGeneration: pod.metadata.generation } : {}),
    phase,
    conditions: all,
    ...(inp.nodeIPs[0] ? { hostIP: inp.nodeIPs[0], hostIPs: inp.nodeIPs.map(ip => ({ ip })) } : {}),
    ...(podIPs.length ? { podIP: podIPs[0], podIPs: podIPs.map(ip => ({ ip })) } : {}),
    startTime: prev.startTime ?? stamp,
    ...(inits.length ? { initContainerStatuses: initBuilt.map(x => x.b.status) } : {}),
    containerStatuses: regularBuilt.map(x => x.b.status),
    ...(pod.spec.ephemeralContainers?.length ? { ephemeralContainerStatuses: ephemeralStatuses(inp, initialized ? 'ContainerCreating' : 'PodInitializing', sandboxId) } : {}),
    qosClass: prev.qosClass,
  };
  if (out.qosClass === undefined) delete out.qosClass;
  // a pod that ran and finished keeps the IPs it had
  if (terminal && !out.podIP && prev.podIP) { out.podIP = prev.podIP; out.podIPs = prev.podIPs; }
  return out;
}

/** whether two statuses differ in more than the times a rewrite would refresh */
export function statusChanged(a: PodStatus | undefined, b: PodStatus): boolean {
  return JSON.stringify(a ?? {}) !== JSON.stringify(b);
}
