// What an interpreted script runs against: the container's environment and files, its output,
// time, and the signals sent to it.

import type { Socket } from 'node:net';
import type { SimInput } from '../stdin.ts';
import type { PodListener } from '../network.ts';

export type OutputStream = 'stdout' | 'stderr';
/** what a program writes: text, or bytes (an archive) that must reach the client unchanged */
export type Output = string | Buffer;

/** the script ends with this status: `exit N`, or a signal that ends the process */
export class ScriptExit {
  readonly status: number;
  constructor(status: number) {
    this.status = status;
  }
}

export interface ShellHost {
  env: Record<string, string>;
  /** files the container wrote (`echo x > /tmp/f`), by absolute path */
  files: Map<string, string>;
  /** what an unknown program does: a container's main process keeps running (a daemon the sim
   * does not know); an exec'd one succeeds (a tool the image would have) */
  unknownCommand: 'daemon' | 'succeed';
  output(stream: OutputStream, data: Output): Promise<void>;
  /** false when a trapped signal cut it short; throws ScriptExit when a signal ends the process */
  sleep(ms: number): Promise<boolean>;
  /** a program the sim does not know runs until signalled; unlike the shell, it ends on SIGTERM */
  daemon(): Promise<boolean>;
  /** milliseconds slept so far, to tell a loop that passes time from one that spins */
  sleptMs(): number;
  /** trap: '' ignores the signal, undefined restores the default, anything else is run on it */
  setTrap(signal: 'TERM' | 'INT', action: string | undefined): void;
  /** trap actions of signals that arrived since the last call */
  takeTraps(): string[];
  /** throws ScriptExit when a signal has ended the process */
  check(): void;
  /** standard input, when a client is attached to it (exec -i); absent: empty */
  stdin?: SimInput;
  /** stdin is a terminal (exec -t): an interactive shell prompts and echoes */
  tty?: boolean;
  /** the terminal's size as the client last sent it (`stty size`) */
  terminalSize?(): { width: number; height: number } | undefined;
  /** listening on a port of the pod's network namespace (absent: no network to listen on) */
  listen?(port: number, onConnection: (socket: Socket) => void): Promise<PodListener>;
  /** the command lines of the processes its PID namespace holds, PID 1 first (for `ps`) */
  processes?(): string[];
  /** the argv of the process running the script, joined (for `ps`'s own line) */
  commandLine?: string;
  /** a file under a mount, read from the host path behind it (hostPath, emptyDir...) */
  readMounted?(path: string): string | undefined;
}

export interface CommandIo {
  write(fd: 1 | 2, data: Output): Promise<void>;
}

/** how a builtin reaches back into the shell: nested scripts and the working directory */
export interface ShellAccess {
  host: ShellHost;
  cwd: string;
  runScript(src: string): Promise<number>;
  runArgv(argv: string[], io: CommandIo): Promise<number>;
}

export type Builtin = (args: string[], io: CommandIo, sh: ShellAccess) => Promise<number> | number;
