// `ps` as busybox prints it, over the processes the container's PID namespace holds: its own
// (PID 1 first) or, when it shares one, the target container's, the pod's or the host's
// (runtime-sim/pid-namespace.ts decides which). Each simulated container is one process, shown
// by its command line; `ps` itself comes last, as it does on a real system.

/** busybox's default `ps` columns: PID, USER, TIME, COMMAND */
export function formatProcessList(commands: string[]): string {
  const rows = [...commands, 'ps'].map((cmd, i) => `${String(i + 1).padStart(5)} ${'root'.padEnd(8)} ${'0:00'.padStart(5)} ${cmd}`);
  return `PID   USER     TIME  COMMAND\n${rows.join('\n')}\n`;
}
