// What an interpreted script runs against: the container's environment and files, its output,
// time, and the signals sent to it.

export type OutputStream = 'stdout' | 'stderr';

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
  output(stream: OutputStream, text: string): Promise<void>;
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
  /** the command lines of the processes its PID namespace holds, PID 1 first (for `ps`) */
  processes?(): string[];
  /** the argv of the process running the script, joined (for `ps`'s own line) */
  commandLine?: string;
  /** a file under a mount, read from the host path behind it (hostPath, emptyDir...) */
  readMounted?(path: string): string | undefined;
}
