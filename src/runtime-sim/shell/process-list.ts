// `ps` as the busybox of the test image prints it, over the processes the container's PID
// namespace holds: its own (PID 1 first) or, when it shares one, the target container's, the
// pod's or the host's (runtime-sim/pid-namespace.ts decides which). Each simulated container is
// one process, shown by its command line, owned by uid 0 (the image has no /etc/passwd). `ps`
// itself comes last: run from a script it is a forked applet, which busybox shows as
// `{ps}` followed by the shell's command line.

/** busybox's `ps` columns without TIME, as the static busybox in the images prints them */
export function formatProcessList(commands: string[], self: string): string {
  const rows = [...commands, self === 'ps' ? 'ps' : `{ps} ${self}`].map((cmd, i) => `${String(i + 1).padStart(5)} ${'0'.padEnd(8)} ${cmd}`);
  return `PID   USER     COMMAND\n${rows.join('\n')}\n`;
}
