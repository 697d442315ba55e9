// Per-container behaviour set through annotations, for tests and scale runs whose images the
// sim cannot interpret. A key is looked up on the container's own annotations, then on the
// pod's (the sandbox's) as "<key>.<container name>", then on the pod's as "<key>" for every
// container of the pod. The agent passes pod annotations to the sandbox, so the pod form is the
// one that works through the API.

import { invalidArgument } from './grpc-errors.ts';

export const annotationPrefix = 'runtime-sim.orch.io/';

/** the container exits with this status (after run-seconds, else at once) */
export const exitCodeAnnotation = `${annotationPrefix}exit-code`;
/** the container runs this long, then exits (with exit-code, else 0) */
export const runSecondsAnnotation = `${annotationPrefix}run-seconds`;
/** "true": the container ignores SIGTERM, so stopping it waits out the grace period (137) */
export const ignoreSigtermAnnotation = `${annotationPrefix}ignore-sigterm`;

/** the CPU a running container uses, in millicores, as its stats report it (default 0) */
export const cpuMillicoresAnnotation = `${annotationPrefix}cpu-millicores`;
/** the memory the container uses, in bytes, as its stats report it (default: its files' bytes plus 1 MiB): over its memory limit it is OOM-killed (137, OOMKilled), as under a real cgroup */
export const memoryBytesAnnotation = `${annotationPrefix}memory-bytes`;

export interface Overrides {
  exitCode?: number;
  runSeconds?: number;
  ignoreSigterm?: boolean;
  cpuMillicores?: number;
  memoryBytes?: number;
}

type Annotations = Record<string, string> | undefined | null;

export function readOverrides(containerName: string, container: Annotations, sandbox: Annotations): Overrides {
  const lookup = (key: string) => container?.[key] ?? sandbox?.[`${key}.${containerName}`] ?? sandbox?.[key];
  const out: Overrides = {};
  const exit = lookup(exitCodeAnnotation);
  if (exit !== undefined) {
    if (!/^\d{1,3}$/.test(exit) || Number(exit) > 255) throw invalidArgument(`annotation ${exitCodeAnnotation}: ${JSON.stringify(exit)} is not an exit code (0-255)`);
    out.exitCode = Number(exit);
  }
  const run = lookup(runSecondsAnnotation);
  if (run !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(run)) throw invalidArgument(`annotation ${runSecondsAnnotation}: ${JSON.stringify(run)} is not a number of seconds`);
    out.runSeconds = Number(run);
  }
  const ignore = lookup(ignoreSigtermAnnotation);
  if (ignore !== undefined) out.ignoreSigterm = ignore === 'true';
  for (const [key, field] of [[cpuMillicoresAnnotation, 'cpuMillicores'], [memoryBytesAnnotation, 'memoryBytes']] as const) {
    const v = lookup(key);
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) throw invalidArgument(`annotation ${key}: ${JSON.stringify(v)} is not a whole number`);
    out[field] = Number(v);
  }
  return out;
}
