// A simulated process: an interpreted script that time passes for and signals reach. It is a
// container's PID 1, so (as on a real runtime) a SIGTERM or SIGINT (a container's stop signal) it
// has no trap for does nothing while it runs the shell or busybox programs, which install no
// handler: only a trap ends it early, or the SIGKILL at the end of the grace period. A program the
// sim does not know (a daemon) is taken to handle the signal and ends with 128 + its number.
// SIGKILL ends it with 137 whatever it does.

import type { CommandList } from './shell/ast.ts';
import { ScriptExit, type Output, type OutputStream, type ShellHost } from './shell/host.ts';
import { Interpreter } from './shell/interpreter.ts';
import type { Clock } from '../api/clock.ts';
import type { SimInput } from './stdin.ts';

export type Signal = 'TERM' | 'INT' | 'KILL';

// setTimeout cannot wait longer; a longer sleep (`sleep 2147483647`) is as good as forever here
const longestTimerMs = 2 ** 31 - 1;

export interface ProcessOptions {
  env: Record<string, string>;
  files: Map<string, string>;
  cwd?: string;
  unknownCommand: 'daemon' | 'succeed';
  clock: Clock;
  output(stream: OutputStream, data: Output): Promise<void>;
  stdin?: SimInput;
  tty?: boolean;
  terminalSize?: ShellHost['terminalSize'];
  listen?: ShellHost['listen'];
  /** what `ps` sees (absent: only this process) */
  processes?: () => string[];
  /** this process's argv, joined */
  commandLine?: string;
  /** reads a file under one of the container's mounts from the host */
  readMounted?: (path: string) => string | undefined;
  /** restored from a checkpoint: this much sleeping passes at once and output is held back until it has (restore.ts) */
  replayMs?: number;
}

export class SimProcess implements ShellHost {
  readonly env: Record<string, string>;
  readonly files: Map<string, string>;
  readonly unknownCommand: 'daemon' | 'succeed';
  readonly stdin?: SimInput;
  readonly tty?: boolean;
  readonly terminalSize?: ShellHost['terminalSize'];
  readonly listen?: ShellHost['listen'];
  readonly #clock: Clock;
  readonly #output: ProcessOptions['output'];
  readonly #cwd: string;
  readonly #traps = new Map<'TERM' | 'INT', string>();
  #pending: string[] = [];
  #endedBy: number | undefined;
  #wake: (() => void) | undefined;
  #slept = 0;
  readonly #replayMs: number;
  #exited = false;
  /** running a program the sim does not know, which ends on SIGTERM */
  #daemon = false;

  constructor(opts: ProcessOptions) {
    this.env = opts.env;
    this.files = opts.files;
    this.unknownCommand = opts.unknownCommand;
    this.#clock = opts.clock;
    this.#output = opts.output;
    this.#replayMs = opts.replayMs ?? 0;
    this.#cwd = opts.cwd || '/';
    this.stdin = opts.stdin;
    this.tty = opts.tty;
    this.terminalSize = opts.terminalSize;
    this.listen = opts.listen;
    if (opts.processes) this.processes = opts.processes;
    if (opts.readMounted) this.readMounted = opts.readMounted;
    if (opts.commandLine !== undefined) this.commandLine = opts.commandLine;
  }

  commandLine?: string;
  processes?: () => string[];
  readMounted?: (path: string) => string | undefined;

  /** runs the program to its end; resolves with the exit status */
  async run(program: CommandList): Promise<number> {
    try {
      return await new Interpreter(this, this.#cwd).run(program);
    } finally {
      this.#exited = true;
    }
  }

  signal(sig: Signal): void {
    if (this.#exited || this.#endedBy !== undefined) return;
    if (sig === 'KILL') {
      this.#endedBy = 137;
    } else {
      const action = this.#traps.get(sig);
      if (action === '') return;
      if (action === undefined) {
        // PID 1 gets no default action for a signal it has no handler for
        if (!this.#daemon) return;
        this.#endedBy = sig === 'INT' ? 130 : 143;
      } else this.#pending.push(action);
    }
    // a program waiting on its input ends as one asleep does
    if (this.#endedBy !== undefined) this.stdin?.interrupt(new ScriptExit(this.#endedBy));
    this.#wake?.();
  }

  output(stream: OutputStream, data: Output): Promise<void> {
    // replaying up to the checkpoint: that output was written before it
    if (this.#slept < this.#replayMs) return Promise.resolve();
    return this.#output(stream, data);
  }

  check(): void {
    if (this.#endedBy !== undefined) throw new ScriptExit(this.#endedBy);
  }

  sleptMs(): number {
    return this.#slept;
  }

  setTrap(signal: 'TERM' | 'INT', action: string | undefined): void {
    if (action === undefined) this.#traps.delete(signal);
    else this.#traps.set(signal, action);
  }

  takeTraps(): string[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  async daemon(): Promise<boolean> {
    this.#daemon = true;
    try {
      return await this.sleep(Infinity);
    } finally {
      this.#daemon = false;
    }
  }

  sleep(ms: number): Promise<boolean> {
    this.check();
    if (this.#pending.length > 0) return Promise.resolve(false);
    // the part of a sleep that lies before the checkpoint being replayed passes at once
    const replayed = Math.min(Math.max(0, this.#replayMs - this.#slept), ms);
    if (replayed > 0) {
      this.#slept += replayed;
      if (replayed === ms) return Promise.resolve(true);
      ms -= replayed;
    }
    const forever = !(ms <= longestTimerMs);
    this.#slept += forever ? longestTimerMs : ms;
    return new Promise<boolean>((resolve, reject) => {
      const timer = forever ? undefined : this.#clock.after(ms, () => {
        this.#wake = undefined;
        resolve(true);
      });
      this.#wake = () => {
        timer?.cancel();
        this.#wake = undefined;
        if (this.#endedBy !== undefined) reject(new ScriptExit(this.#endedBy));
        else resolve(false);
      };
    });
  }
}
