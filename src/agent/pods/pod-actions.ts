// What one sync of a pod must do, decided from the pod's spec and what the runtime has: make a
// sandbox (or a new one when the old one died), run the next init container, start containers
// that are missing or may restart, stop containers that failed liveness or whose spec changed,
// and whether the pod has finished for good. Pure: the worker carries the decisions out.

import type { BackoffState } from './backoff.ts';
import { containerHash } from './container-hash.ts';
import { containerRestartPolicy, isSidecar, shouldRestart } from './restart-policy.ts';
import type { Container, Pod, RuntimeContainer, RuntimePod } from './types.ts';

export interface StartAction { container: Container; init: boolean; restartCount: number; backoffKey: string; since?: number }
export interface KillAction { id: string; name: string; message: string }
export interface Waiting { reason: string; message: string }

export interface PodActions {
  /** stop every container and sandbox before anything else (the sandbox is gone or changed) */
  killPod: boolean;
  createSandbox: boolean;
  sandboxAttempt: number;
  /** the ready sandbox containers go in, when no new one is made */
  sandboxId?: string;
  start: StartAction[];
  kill: KillAction[];
  /** containers held back, by name (CrashLoopBackOff) */
  waiting: Map<string, Waiting>;
  /** an init container failed and will not be retried */
  initFailed: boolean;
  /** nothing runs and nothing will be restarted: the pod has finished */
  terminal: boolean;
  /** old exited instances the runtime may drop */
  prune: string[];
}

export interface ActionInputs {
  pod: Pod;
  runtime: RuntimePod | undefined;
  now: number;
  backoff(key: string, since: number): BackoffState;
  /** containers whose liveness or startup probe failed past its threshold, by name */
  probeFailures: Map<string, string>;
  /** whether containers with a startup probe have passed it, by name */
  started?: Map<string, boolean>;
}

const toMs = (ns: number | undefined) => (ns ? Math.floor(ns / 1e6) : 0);

/** the newest instance of each container name, in the given containers */
function newestByName(cs: RuntimeContainer[]): Map<string, RuntimeContainer> {
  const out = new Map<string, RuntimeContainer>();
  for (const c of cs) {
    const have = out.get(c.name);
    if (!have || c.createdAt > have.createdAt) out.set(c.name, c);
  }
  return out;
}

export function backoffKey(pod: Pod, name: string): string {
  return `${pod.metadata.uid}/${name}`;
}

export function backoffMessage(pod: Pod, name: string, delayMs: number): string {
  return `back-off ${delayMs / 1000}s restarting failed container=${name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

export function computePodActions(inp: ActionInputs): PodActions {
  const { pod, runtime } = inp;
  const out: PodActions = { killPod: false, createSandbox: false, sandboxAttempt: 0, start: [], kill: [], waiting: new Map(), initFailed: false, terminal: false, prune: [] };
  const sandbox = runtime?.sandboxes[0];
  const everCreated = (runtime?.containers.length ?? 0) > 0;
  const newestEver = newestByName(runtime?.containers ?? []);

  if (!sandbox || sandbox.state !== 'SANDBOX_READY') {
    // a pod that never restarts does not get a second sandbox once its containers have run
    if (sandbox && (pod.spec.restartPolicy === 'Never') && everCreated) {
      out.killPod = true;
      out.terminal = true;
      return out;
    }
    out.killPod = !!sandbox;
    out.createSandbox = true;
    out.sandboxAttempt = sandbox ? sandbox.attempt + 1 : 0;
  } else {
    out.sandboxId = sandbox.id;
  }

  const inSandbox = out.sandboxId ? (runtime?.containers ?? []).filter(c => c.sandboxId === out.sandboxId) : [];
  const current = newestByName(inSandbox);
  const nextCount = (name: string) => {
    const prev = newestEver.get(name);
    return prev ? prev.restartCount + 1 : 0;
  };

  // keep the newest two instances of each name (the newest gives lastState)
  const byName = new Map<string, RuntimeContainer[]>();
  for (const c of runtime?.containers ?? []) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  for (const list of byName.values()) {
    list.sort((a, b) => b.createdAt - a.createdAt);
    for (const old of list.slice(2)) if (old.state === 'CONTAINER_EXITED') out.prune.push(old.id);
  }

  /** an exited container: restart (maybe after back-off) or leave; true when it will run again */
  const restartOrWait = (c: Container, rc: RuntimeContainer, init: boolean): boolean => {
    const policy = containerRestartPolicy(pod, c, init);
    if (!shouldRestart(policy, rc.exitCode)) return false;
    const key = backoffKey(pod, c.name);
    const since = toMs(rc.finishedAt) || inp.now;
    const b = inp.backoff(key, since);
    if (b.inBackoff) out.waiting.set(c.name, { reason: 'CrashLoopBackOff', message: backoffMessage(pod, c.name, b.delayMs) });
    else out.start.push({ container: c, init, restartCount: rc.restartCount + 1, backoffKey: key, since });
    return true;
  };

  const checkRunning = (c: Container, rc: RuntimeContainer) => {
    if (rc.hash && rc.hash !== containerHash(c)) out.kill.push({ id: rc.id, name: c.name, message: `Container ${c.name} definition changed, will be restarted` });
    else if (inp.probeFailures.has(c.name)) out.kill.push({ id: rc.id, name: c.name, message: inp.probeFailures.get(c.name)! });
  };

  if (out.createSandbox) {
    // a new sandbox starts from the first init container (or the first containers)
    const first = (pod.spec.initContainers ?? [])[0];
    if (first) out.start.push({ container: first, init: true, restartCount: nextCount(first.name), backoffKey: backoffKey(pod, first.name) });
    else for (const c of pod.spec.containers) out.start.push({ container: c, init: false, restartCount: nextCount(c.name), backoffKey: backoffKey(pod, c.name) });
    return out;
  }

  // init containers run one at a time, in order; once a regular container exists they are done
  const regularStarted = pod.spec.containers.some(c => current.has(c.name));
  let initialized = true;
  if (!regularStarted) {
    for (const c of pod.spec.initContainers ?? []) {
      const rc = current.get(c.name);
      if (!rc) { out.start.push({ container: c, init: true, restartCount: nextCount(c.name), backoffKey: backoffKey(pod, c.name) }); initialized = false; break; }
      if (rc.state === 'CONTAINER_RUNNING') {
        // the next init container waits until a sidecar has started (its startup probe passed)
        if (isSidecar(c)) { checkRunning(c, rc); if (inp.started?.get(c.name) !== false) continue; }
        initialized = false;
        break;
      }
      if (rc.state !== 'CONTAINER_EXITED') { initialized = false; break; }
      if (!isSidecar(c) && rc.exitCode === 0) continue;
      initialized = false;
      if (!restartOrWait(c, rc, true) && !isSidecar(c)) { out.initFailed = true; out.terminal = true; }
      break;
    }
  } else {
    // sidecars keep running next to the regular containers
    for (const c of (pod.spec.initContainers ?? []).filter(isSidecar)) {
      const rc = current.get(c.name);
      if (!rc) out.start.push({ container: c, init: true, restartCount: nextCount(c.name), backoffKey: backoffKey(pod, c.name) });
      else if (rc.state === 'CONTAINER_RUNNING') checkRunning(c, rc);
      else if (rc.state === 'CONTAINER_EXITED') restartOrWait(c, rc, true);
    }
  }
  if (out.initFailed) {
    for (const rc of inSandbox) if (rc.state === 'CONTAINER_RUNNING') out.kill.push({ id: rc.id, name: rc.name, message: 'Init container failed' });
    return out;
  }
  if (!initialized) return out;

  let active = 0;
  for (const c of pod.spec.containers) {
    const rc = current.get(c.name);
    if (!rc) { out.start.push({ container: c, init: false, restartCount: nextCount(c.name), backoffKey: backoffKey(pod, c.name) }); active++; continue; }
    if (rc.state === 'CONTAINER_RUNNING') { checkRunning(c, rc); active++; continue; }
    if (rc.state === 'CONTAINER_CREATED' || rc.state === 'CONTAINER_UNKNOWN') { active++; continue; }
    if (restartOrWait(c, rc, false)) active++;
  }
  if (active === 0) {
    out.terminal = true;
    for (const rc of inSandbox) if (rc.state === 'CONTAINER_RUNNING') out.kill.push({ id: rc.id, name: rc.name, message: 'Pod has completed' });
  }
  return out;
}
