// A container checkpoint as the kubelet takes it: the archive goes to
// `<root-dir>/checkpoints/checkpoint-<pod>_<namespace>-<container>-<RFC 3339 time>.tar`, the
// runtime is asked through CRI CheckpointContainer, and the agent never writes the archive itself
// (its contents are the runtime's). Errors come back worded as the kubelet's, since the HTTP
// answer carries them to the user verbatim.

import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CriClient } from '../cri/client.ts';

/** the archives hold every memory page of the container: root only, as spec 2.4 asks */
export const checkpointsDirMode = 0o700;

export function checkpointsDir(rootDir: string): string {
  return join(rootDir, 'checkpoints');
}

/** made at start (while the gate is on) and tightened if it was there looser */
export async function ensureCheckpointsDir(rootDir: string): Promise<string> {
  const dir = checkpointsDir(rootDir);
  await mkdir(dir, { recursive: true, mode: checkpointsDirMode });
  await chmod(dir, checkpointsDirMode);
  return dir;
}

/** Go's time.RFC3339 of local time: whole seconds, `Z` in UTC, otherwise the zone's offset */
export function rfc3339Local(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const offsetMin = -at.getTimezoneOffset();
  const zone = offsetMin === 0 ? 'Z' : `${offsetMin > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}${zone}`;
}

export function checkpointLocation(rootDir: string, namespace: string, pod: string, container: string, at: Date): string {
  // the pod's "full name" as the kubelet spells it: <name>_<namespace>
  return join(checkpointsDir(rootDir), `checkpoint-${pod}_${namespace}-${container}-${rfc3339Local(at)}.tar`);
}

/**
 * the timeout the runtime is told and the deadline of the call: a request for more than the CRI
 * default gets what it asked for, anything less (0 and absent included) gets the default
 */
export function checkpointTimeout(requestedSeconds: number, defaultMs: number): { timeoutSeconds: number; deadlineMs: number } | { error: string } {
  if (requestedSeconds < 0) return { error: 'CheckpointContainer requires the timeout value to be > 0' };
  const defaultSeconds = Math.floor(defaultMs / 1000);
  if (requestedSeconds > defaultSeconds) return { timeoutSeconds: requestedSeconds, deadlineMs: requestedSeconds * 1000 };
  return { timeoutSeconds: defaultSeconds, deadlineMs: defaultMs };
}

export interface CheckpointRequest {
  namespace: string;
  pod: string;
  container: string;
  /** the running instance of the container in the runtime; none → the kubelet's "not found" */
  containerId: string | undefined;
  /** seconds from ?timeout=, 0 when absent */
  timeoutSeconds: number;
}

export interface Checkpointer {
  /** the archive's path, or the error the kubelet would give (to be answered as a 500) */
  checkpoint(req: CheckpointRequest): Promise<{ location: string } | { error: string }>;
}

export function checkpointer(o: { cri: CriClient; rootDir: string; defaultTimeoutMs: number; now?: () => Date }): Checkpointer {
  const now = o.now ?? (() => new Date());
  return {
    async checkpoint(req) {
      if (!req.containerId) return { error: `container ${req.container} not found` };
      const timeout = checkpointTimeout(req.timeoutSeconds, o.defaultTimeoutMs);
      if ('error' in timeout) return timeout;
      const location = checkpointLocation(o.rootDir, req.namespace, req.pod, req.container, now());
      // the directory may have been removed since start; the runtime writes into it, not beside it
      await ensureCheckpointsDir(o.rootDir);
      try {
        await o.cri.checkpointContainer({ containerId: req.containerId, location, timeout: timeout.timeoutSeconds }, timeout.deadlineMs);
      } catch (err) {
        return { error: (err as Error).message };
      }
      return { location };
    },
  };
}
