// A simulated container: created, started after the start delay, running its interpreted
// program with output going to its CRI log, then exited with a status and a reason. Stopping
// sends SIGTERM and, once the grace period is over (or at once without one), SIGKILL.

import type { RestorePoint } from './restore.ts';
import { CriLogWriter } from './cri-log.ts';
import { mountReader } from './mounts.ts';
import { execProblem } from './executable.ts';
import { SimError, unknown } from './grpc-errors.ts';
import type { SimImage } from './images.ts';
import type { Clock } from '../api/clock.ts';
import { nanos } from './options.ts';
import { SimProcess, type ProcessOptions } from './process.ts';
import type { CommandList } from './shell/ast.ts';
import type { Output, OutputStream, ShellHost } from './shell/host.ts';
import type { Readable } from 'node:stream';
import { SimInput } from './stdin.ts';
import type { PodListener } from './network.ts';
import { argvCommand } from './shell/parse.ts';
import { status as grpcStatus } from '@grpc/grpc-js';
import type { CriContainer, CriContainerConfig, CriContainerStatus, CriImageSpec, CriInput, CriLinuxContainerResources } from '../agent/cri/generated/cri-types.ts';

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface ContainerSpec {
  id: string;
  sandboxId: string;
  /** "container_pod_namespace_uid_attempt", reserved per runtime */
  name: string;
  config: CriContainerConfig;
  image: SimImage;
  /** the image as the container shows it: its first tag, else what the config asked for */
  imageName: string;
  /** sandbox log directory joined with the container's log path; "" when either is empty */
  logPath: string;
  env: Record<string, string>;
  /** the sandbox's hostname, in /etc/hostname */
  hostname: string;
  /** the sandbox's resolver settings, in /etc/resolv.conf */
  resolvConf?: string;
  program: CommandList;
  clock: Clock;
  /** what the container uses (the memory-bytes annotation): over its memory limit, the kernel kills it */
  memoryBytes?: number;
  /** the checkpoint it is restored from (restore.ts) */
  restore?: RestorePoint;
  /** listening on a port of the pod's network namespace */
  listen?: ShellHost['listen'];
  /** the command lines of the processes its PID namespace holds (pid-namespace.ts) */
  processes?: () => string[];
}

/** a streamed exec's ends: its input, whether it has a terminal, where its output goes */
export interface ExecStreams {
  stdin?: Readable;
  tty: boolean;
  terminalSize?: () => { width: number; height: number } | undefined;
  write(stream: OutputStream, data: Output): Promise<void>;
}

export type OutputListener = (stream: OutputStream, data: Output) => void;

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export class SimContainer {
  readonly spec: ContainerSpec;
  readonly createdAt: number;
  /** files the container's processes wrote, shared with exec'd ones */
  readonly files = new Map<string, string>();
  /** files the runtime mounts in rather than the container writing them */
  readonly mounted = new Set<string>();
  state: ContainerState = 'CONTAINER_CREATED';
  startedAt = 0;
  finishedAt = 0;
  exitCode = 0;
  reason = '';
  message = '';
  resources: CriLinuxContainerResources | null;
  #starting: Promise<void> | undefined;
  #process: SimProcess | undefined;
  /** PID 1's input when its config asks for one (`stdin`), fed by attached clients */
  #stdin: SimInput | undefined;
  /** PID 1's terminal size, as the last attached client's resize channel gave it */
  #terminalSize: { width: number; height: number } | undefined;
  #exited: Promise<void> | undefined;
  #removed = false;
  #oomKilled = false;
  readonly #execs = new Set<SimProcess>();
  readonly #attached = new Set<OutputListener>();
  readonly #listeners = new Set<PodListener>();

  constructor(spec: ContainerSpec) {
    this.spec = spec;
    this.createdAt = nanos(spec.clock.now());
    this.resources = spec.config.linux?.resources ?? null;
    for (const [path, data] of spec.restore?.files ?? []) this.files.set(path, data);
    // the runtime mounts the sandbox's hostname file into every container
    this.files.set('/etc/hostname', `${spec.hostname}\n`);
    this.mounted.add('/etc/hostname');
    if (spec.resolvConf !== undefined) {
      this.files.set('/etc/resolv.conf', spec.resolvConf);
      this.mounted.add('/etc/resolv.conf');
    }
  }

  get id(): string {
    return this.spec.id;
  }

  async start(delayMs: number): Promise<void> {
    if (this.#starting) throw unknown(`failed to set starting state for container "${this.id}": container is already in starting state`);
    if (this.state !== 'CONTAINER_CREATED') throw unknown(`failed to set starting state for container "${this.id}": container is in ${this.state} state`);
    this.#starting = delayMs > 0 ? new Promise<void>(done => this.spec.clock.after(delayMs, done)) : Promise.resolve();
    await this.#starting;
    this.#starting = undefined;
    if (this.#removed) throw unknown(`failed to start containerd task "${this.id}": container was removed while starting`);
    const clock = this.spec.clock;
    const problem = execProblem(this.spec.config.command ?? []);
    if (problem) {
      // as containerd leaves it: exited without having started, the error kept as its message
      this.state = 'CONTAINER_EXITED';
      this.finishedAt = nanos(clock.now());
      this.exitCode = 128;
      this.reason = 'StartError';
      this.message = problem;
      throw unknown(problem);
    }
    const log = this.spec.logPath ? new CriLogWriter(this.spec.logPath, clock) : undefined;
    // with a terminal, the process has one output stream, as on a pty
    const tty = !!this.spec.config.tty;
    this.#stdin = this.spec.config.stdin ? new SimInput() : undefined;
    const proc = new SimProcess({
      env: this.spec.env,
      files: this.files,
      cwd: this.spec.config.workingDir,
      unknownCommand: 'daemon',
      clock,
      output: (written, data) => {
        const stream = tty ? 'stdout' : written;
        for (const l of this.#attached) l(stream, data);
        return log?.write(stream, String(data)) ?? Promise.resolve();
      },
      stdin: this.#stdin,
      tty,
      terminalSize: () => this.#terminalSize,
      listen: this.#listen(),
      ...this.#sees(),
      replayMs: this.spec.restore?.sleptMs,
      commandLine: [...(this.spec.config.command ?? []), ...(this.spec.config.args ?? [])].join(' '),
    });
    this.#process = proc;
    this.state = 'CONTAINER_RUNNING';
    this.startedAt = nanos(clock.now());
    this.checkMemory();
    this.#exited = proc.run(this.spec.program).then(async code => {
      await log?.end();
      for (const e of this.#execs) e.signal('KILL');
      // the pod's listeners the container's processes left behind go with them
      for (const l of this.#listeners) l.close();
      this.#listeners.clear();
      this.finishedAt = nanos(clock.now());
      this.exitCode = code;
      // containerd's reason for a task the OOM killer ended
      this.reason = this.#oomKilled ? 'OOMKilled' : code === 0 ? 'Completed' : 'Error';
      this.state = 'CONTAINER_EXITED';
    });
  }

  /** how long its main process has slept (a checkpoint records it; a restore replays up to it) */
  sleptMs(): number {
    return this.#process?.sleptMs() ?? 0;
  }

  /** the OOM killer's turn: a container using more than its memory limit is killed (at start, or when its limit is lowered) */
  checkMemory(): void {
    const limit = Number(this.resources?.memoryLimitInBytes ?? 0);
    if (this.state !== 'CONTAINER_RUNNING' || !this.spec.memoryBytes || !limit || this.spec.memoryBytes <= limit) return;
    this.#oomKilled = true;
    this.#process?.signal('KILL');
  }

  /** SIGTERM (or SIGINT when that is its stop signal), then SIGKILL after timeoutSeconds; a container not running is left as it is */
  async stop(timeoutSeconds: number): Promise<void> {
    if (this.#starting) await this.#starting.catch(() => {});
    const proc = this.#process, exited = this.#exited;
    if (this.state !== 'CONTAINER_RUNNING' || !proc || !exited) return;
    if (timeoutSeconds > 0) {
      proc.signal(this.spec.config.stopSignal === 'SIGNAL_SIGINT' ? 'INT' : 'TERM');
      if (await this.#settlesWithin(exited, timeoutSeconds * 1000)) return;
    }
    proc.signal('KILL');
    await exited;
  }

  /** stops it at once and marks it gone, so a start still waiting fails */
  async remove(): Promise<void> {
    this.#removed = true;
    await this.stop(0);
  }

  async exec(argv: string[], timeoutSeconds: number): Promise<ExecResult> {
    if (this.state !== 'CONTAINER_RUNNING') throw unknown(`container is in ${this.state} state`);
    let stdout = '', stderr = '';
    const { proc, done } = this.#exec(argv, { output: async (stream, data) => { if (stream === 'stdout') stdout += String(data); else stderr += String(data); } });
    if (timeoutSeconds > 0 && !(await this.#settlesWithin(done, timeoutSeconds * 1000))) {
      proc.signal('KILL');
      await done;
      throw new SimError(grpcStatus.DEADLINE_EXCEEDED, `failed to exec in container: timeout ${timeoutSeconds}s exceeded: context deadline exceeded`);
    }
    return { stdout: Buffer.from(stdout), stderr: Buffer.from(stderr), exitCode: await done };
  }

  /**
   * a command run with its streams attached (CRI Exec through the streaming server): output as
   * it is written, input as it comes; `kill` ends it (the client went away)
   */
  execStream(argv: string[], io: ExecStreams): { done: Promise<number>; kill(): void } {
    if (this.state !== 'CONTAINER_RUNNING') throw unknown(`container is in ${this.state} state`);
    const { proc, done } = this.#exec(argv, {
      output: (stream, data) => io.write(io.tty ? 'stdout' : stream, data),
      stdin: io.stdin ? new SimInput(io.stdin) : undefined,
      tty: io.tty,
      terminalSize: io.terminalSize,
      listen: this.#listen(),
    });
    return { done, kill: () => proc.signal('KILL') };
  }

  /** a command beside PID 1, in its environment, files and namespaces, with the given streams */
  #exec(argv: string[], io: Pick<ProcessOptions, 'output' | 'stdin' | 'tty' | 'terminalSize' | 'listen'>): { proc: SimProcess; done: Promise<number> } {
    const proc = new SimProcess({
      env: this.spec.env,
      files: this.files,
      cwd: this.spec.config.workingDir,
      unknownCommand: 'succeed',
      clock: this.spec.clock,
      ...io,
      ...this.#sees(),
      commandLine: argv.join(' '),
    });
    this.#execs.add(proc);
    return { proc, done: proc.run(argvCommand(argv)).finally(() => this.#execs.delete(proc)) };
  }

  /**
   * PID 1's output from now on, until the listener is removed (CRI Attach); the client's input
   * goes to PID 1's when the container has one (its end closes it with `stdinOnce`), and its
   * terminal size to PID 1's terminal
   */
  attach(listener: OutputListener, io: { stdin?: Readable; resize?: AsyncIterable<{ width: number; height: number }> } = {}): () => void {
    this.#attached.add(listener);
    if (io.stdin) this.#stdin?.follow(io.stdin, !!this.spec.config.stdinOnce);
    if (io.resize) void (async () => { for await (const s of io.resize!) this.#terminalSize = s; })();
    return () => this.#attached.delete(listener);
  }

  /** settles when the running container has exited */
  exited(): Promise<void> {
    return this.#exited ?? Promise.resolve();
  }

  #listen(): ShellHost['listen'] {
    const listen = this.spec.listen;
    if (!listen) return undefined;
    return async (port, onConnection) => {
      const l = await listen(port, onConnection);
      this.#listeners.add(l);
      return { close: () => { this.#listeners.delete(l); l.close(); } };
    };
  }

  /** what its processes see of the world outside its own files: other processes, mounted host files */
  #sees(): { processes?: () => string[]; readMounted: (path: string) => string | undefined } {
    return { ...(this.spec.processes ? { processes: this.spec.processes } : {}), readMounted: mountReader(this.spec.config.mounts ?? []) };
  }

  #settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
    return new Promise(resolve => {
      const timer = this.spec.clock.after(ms, () => resolve(false));
      p.then(() => { timer.cancel(); resolve(true); }, () => { timer.cancel(); resolve(true); });
    });
  }

  /** Container, as ListContainers answers: the image ref is the image's id there */
  summary(): CriInput<CriContainer> {
    const c = this.spec.config;
    return {
      id: this.id,
      podSandboxId: this.spec.sandboxId,
      metadata: c.metadata,
      image: this.#imageSpec(),
      imageRef: this.spec.image.id,
      state: this.state,
      createdAt: this.createdAt,
      labels: c.labels ?? {},
      annotations: c.annotations ?? {},
      imageId: this.spec.image.id,
    };
  }

  /** ContainerStatus: the image ref is a repo digest there, as containerd reports it */
  status(): CriInput<CriContainerStatus> {
    const c = this.spec.config;
    return {
      id: this.id,
      metadata: c.metadata,
      state: this.state,
      createdAt: this.createdAt,
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
      exitCode: this.exitCode,
      image: this.#imageSpec(),
      imageRef: this.spec.image.repoDigests[0] ?? this.spec.image.id,
      reason: this.reason,
      message: this.message,
      labels: c.labels ?? {},
      annotations: c.annotations ?? {},
      mounts: c.mounts ?? [],
      logPath: this.spec.logPath,
      resources: this.resources ? { linux: this.resources } : undefined,
      imageId: this.spec.image.id,
      stopSignal: c.stopSignal ?? 'SIGNAL_RUNTIME_DEFAULT',
    };
  }

  #imageSpec(): CriInput<CriImageSpec> {
    const asked = this.spec.config.image;
    return { image: this.spec.imageName, annotations: asked?.annotations ?? {}, userSpecifiedImage: asked?.userSpecifiedImage ?? '' };
  }
}
