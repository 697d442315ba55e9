// A pod on a simulated node, run as the node agent runs one but without a runtime behind it: the
// agent's own decisions (computePodActions), status (podStatus), probes and back-off, carried out
// on the simulated runtime's containers, whose programs run on its shell (so `sleep 5; exit 1`
// exits after five seconds with 1, and a Job's pod completes). What a simulated node does not
// have: a network (HTTP, TCP and gRPC probes pass; exec probes run in the container), volumes,
// logs and exec. Environment variables are the literal ones.

import type { Clock } from '../api/clock.ts';
import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import type { RestartBackoff } from '../agent/pods/backoff.ts';
import { computePodActions, type Waiting } from '../agent/pods/pod-actions.ts';
import { podStatus } from '../agent/pods/pod-status.ts';
import type { Prober } from '../agent/pods/prober.ts';
import type { StatusManager } from '../agent/pods/status-manager.ts';
import type { Container, Pod, RuntimeContainer, RuntimeSandbox } from '../agent/pods/types.ts';
import { SimContainer } from '../runtime-sim/container.ts';
import type { ImageStore } from '../runtime-sim/images.ts';
import { nanos } from '../runtime-sim/options.ts';
import { readOverrides } from '../runtime-sim/overrides.ts';
import { containerProgram } from '../runtime-sim/program.ts';

export const simRuntimeName = 'orch-sim';
export const simRuntimeVersion = `${simRuntimeName}://0.1.0`;

/** what the pods of one pool share */
export interface SimPodContext {
  client: Client;
  clock: Clock;
  log: Logger;
  images: ImageStore;
  backoff: RestartBackoff;
  statuses: StatusManager;
  prober: Prober;
  newId(): string;
}

interface Instance { c: SimContainer; name: string; attempt: number; restartCount: number }

export class SimPod {
  #pod: Pod;
  readonly #ctx: SimPodContext;
  readonly #nodeIP: string;
  readonly #ip: string;
  readonly #release: () => void;
  #sandbox: RuntimeSandbox | undefined;
  #instances: Instance[] = [];
  #pulling = new Map<string, Waiting>();
  #running = false;
  #again = false;
  #timer: { cancel(): void } | undefined;
  #gone = false;

  constructor(pod: Pod, ctx: SimPodContext, nodeIP: string, ip: string, release: () => void) {
    this.#pod = pod;
    this.#ctx = ctx;
    this.#nodeIP = nodeIP;
    this.#ip = ip;
    this.#release = release;
  }

  get uid(): string { return this.#pod.metadata.uid; }

  container(id: string): SimContainer | undefined {
    return this.#instances.find(i => i.c.id === id)?.c;
  }

  update(pod: Pod): void {
    this.#pod = pod;
    this.wake();
  }

  /** one sync at a time; a wake during a sync runs one more after it */
  wake(): void {
    if (this.#gone) return;
    if (this.#running) { this.#again = true; return; }
    this.#running = true;
    void this.#sync().catch(err => this.#ctx.log.warn('simulated pod not synced', { pod: this.#key(), err: String((err as Error).message ?? err) })).finally(() => {
      this.#running = false;
      if (this.#again) { this.#again = false; this.wake(); }
    });
  }

  /** the node stopped: its containers end without a word to the API, as a powered-off machine's */
  halt(): void {
    this.#gone = true;
    this.#timer?.cancel();
    for (const i of this.#instances) void i.c.remove();
    this.#forget();
  }

  #key(): string { return `${this.#pod.metadata.namespace}/${this.#pod.metadata.name}`; }

  #runtime(): { uid: string; name: string; namespace: string; sandboxes: RuntimeSandbox[]; containers: RuntimeContainer[] } {
    const m = this.#pod.metadata;
    return {
      uid: m.uid, name: m.name!, namespace: m.namespace!,
      sandboxes: this.#sandbox ? [this.#sandbox] : [],
      containers: this.#instances.map(({ c, name, attempt, restartCount }) => ({
        id: c.id, sandboxId: c.spec.sandboxId, name, attempt, state: c.state, image: c.spec.imageName, imageRef: c.spec.image.id,
        createdAt: c.createdAt, startedAt: c.startedAt || undefined, finishedAt: c.finishedAt || undefined,
        exitCode: c.state === 'CONTAINER_EXITED' ? c.exitCode : undefined, reason: c.reason || undefined, message: c.message || undefined, restartCount,
      })),
    };
  }

  async #sync(): Promise<void> {
    const pod = this.#pod, ctx = this.#ctx, uid = this.uid, now = ctx.clock.now();
    if (pod.metadata.deletionTimestamp) return this.#terminate();
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const actions = computePodActions({
      pod, runtime: this.#runtime(), now, backoff: (k, since) => ctx.backoff.check(k, since),
      probeFailures: ctx.prober.failures(uid), started: ctx.prober.started(uid),
    });
    if (actions.killPod) await Promise.all(this.#instances.map(i => i.c.stop(0)));
    if (actions.createSandbox || !this.#sandbox) {
      this.#sandbox = { id: ctx.newId(), attempt: actions.sandboxAttempt, state: 'SANDBOX_READY', createdAt: nanos(now), ip: this.#ip };
    }
    await Promise.all(actions.kill.map(k => this.#instances.find(i => i.c.id === k.id)?.c.stop(Number(pod.spec.terminationGracePeriodSeconds ?? 30))));
    for (const s of actions.start) {
      if (s.since !== undefined) ctx.backoff.next(s.backoffKey, s.since);
      await this.#start(s.container, s.restartCount);
      // init containers run one at a time: the next is started by the sync its exit wakes
      if (s.init) break;
    }
    const prune = new Set(actions.prune);
    this.#instances = this.#instances.filter(i => !prune.has(i.c.id));
    const running = this.#instances.filter(i => i.c.state === 'CONTAINER_RUNNING');
    const specs = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
    ctx.prober.sync(pod, running.map(i => ({ id: i.c.id, container: specs.find(c => c.name === i.name)!, startedAtMs: i.c.startedAt / 1e6 })), this.#ip);
    const waiting = new Map([...this.#pulling, ...actions.waiting]);
    ctx.statuses.set(pod, podStatus({
      pod, runtime: this.#runtime(), waiting, ready: ctx.prober.ready(uid), started: ctx.prober.started(uid), initFailed: actions.initFailed,
      nodeIPs: [this.#nodeIP], runtimeName: simRuntimeName, now: ctx.clock.now(),
    }));
    // held back (CrashLoopBackOff, a failed pull): looked at again until the wait is over
    this.#timer?.cancel();
    if (waiting.size) this.#timer = ctx.clock.after(1000, () => this.wake());
  }

  async #start(container: Container, restartCount: number): Promise<void> {
    const ctx = this.#ctx, pod = this.#pod, sandbox = this.#sandbox!;
    const ref = container.image ?? '';
    let image;
    try {
      image = await ctx.images.pull(ref);
      this.#pulling.delete(container.name);
    } catch (err) {
      this.#pulling.set(container.name, { reason: 'ErrImagePull', message: String((err as Error).message ?? err) });
      return;
    }
    const attempt = restartCount;
    const env: Record<string, string> = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOSTNAME: pod.spec.hostname ?? pod.metadata.name! };
    for (const e of container.env ?? []) if (e.value !== undefined && e.value !== null) env[e.name] = e.value;
    const c = new SimContainer({
      id: ctx.newId(), sandboxId: sandbox.id,
      name: [container.name, pod.metadata.name, pod.metadata.namespace, pod.metadata.uid, attempt].join('_'),
      config: { metadata: { name: container.name, attempt }, image: { image: ref, userSpecifiedImage: ref, runtimeHandler: '', imageRef: image.id }, command: container.command ?? [], args: container.args ?? [], workingDir: container.workingDir ?? '', tty: !!container.tty, stdin: !!container.stdin,
        envs: [], mounts: [], devices: [], logPath: '', stdinOnce: false, CDIDevices: [], stopSignal: 'SIGNAL_RUNTIME_DEFAULT' },
      image, imageName: image.repoTags[0] ?? ref, logPath: '', env, hostname: env.HOSTNAME!,
      program: containerProgram(container.command ?? [], container.args ?? [], readOverrides(container.name, undefined, pod.metadata.annotations)),
      clock: ctx.clock,
    });
    this.#instances.push({ c, name: container.name, attempt, restartCount });
    await c.start(0).catch(() => undefined);
    // its exit is the next thing to act on
    if (c.state === 'CONTAINER_RUNNING') void c.exited().then(() => this.wake());
  }

  async #terminate(): Promise<void> {
    const pod = this.#pod, ctx = this.#ctx;
    const grace = Number(pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30);
    ctx.prober.forget(this.uid);
    this.#timer?.cancel();
    await Promise.all(this.#instances.map(i => i.c.stop(grace)));
    ctx.statuses.set(pod, podStatus({
      pod, runtime: this.#runtime(), waiting: new Map(), ready: new Map(), started: new Map(), initFailed: false, terminating: true,
      nodeIPs: [this.#nodeIP], runtimeName: simRuntimeName, now: ctx.clock.now(),
    }));
    await ctx.statuses.flush(this.uid);
    const m = pod.metadata;
    await ctx.client.delete(`/api/v1/namespaces/${encodeURIComponent(m.namespace!)}/pods/${encodeURIComponent(m.name!)}`, { gracePeriodSeconds: 0, preconditions: { uid: m.uid } }).catch(() => undefined);
    this.#gone = true;
    this.#forget();
  }

  #forget(): void {
    this.#ctx.prober.forget(this.uid);
    this.#ctx.statuses.forget(this.uid);
    this.#ctx.backoff.forget(`${this.uid}/`);
    this.#release();
  }
}
