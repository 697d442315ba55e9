// What a simulated runtime is told at start, and the defaults it falls back on.

import { randomBytes } from 'node:crypto';
import { realClock, type Clock } from '../api/clock.ts';
import { silentLogger, type Logger } from '../api/log.ts';

export interface RuntimeSimOptions {
  /** the UNIX socket to listen on */
  socket: string;
  /** how long StartContainer takes before the container runs */
  startDelayMs?: number;
  /** how long PullImage takes */
  pullDelayMs?: number;
  /** CIDR that sandbox IPs come from; default 10.244.0.0/16 */
  podSubnet?: string;
  /** image names whose pull fails as a registry without them answers */
  unpullableImages?: string[];
  /** images present from the start */
  preloadedImages?: string[];
  /** whether CheckpointContainer writes archives (false: UNIMPLEMENTED, as containerd 1.6) */
  checkpoint?: boolean;
  /** how long writing a checkpoint takes (the dump of a real runtime); a request's timeout cuts it short */
  checkpointDelayMs?: number;
  /** the image a sandbox is made from; present (and pinned) once a sandbox has run */
  sandboxImage?: string;
  clock?: Clock;
  log?: Logger;
  /** the source of sandbox and container ids; default 64 random hex digits */
  newId?: () => string;
}

export interface SimSettings {
  socket: string;
  startDelayMs: number;
  pullDelayMs: number;
  podSubnet: string;
  unpullableImages: string[];
  preloadedImages: string[];
  checkpoint: boolean;
  checkpointDelayMs: number;
  sandboxImage: string;
  clock: Clock;
  log: Logger;
  newId: () => string;
}

export function simSettings(opts: RuntimeSimOptions): SimSettings {
  return {
    socket: opts.socket,
    startDelayMs: opts.startDelayMs ?? 0,
    pullDelayMs: opts.pullDelayMs ?? 0,
    podSubnet: opts.podSubnet ?? '10.244.0.0/16',
    unpullableImages: opts.unpullableImages ?? [],
    preloadedImages: opts.preloadedImages ?? [],
    checkpoint: opts.checkpoint ?? false,
    checkpointDelayMs: opts.checkpointDelayMs ?? 0,
    sandboxImage: opts.sandboxImage ?? 'registry.k8s.io/pause:3.10',
    clock: opts.clock ?? realClock,
    log: opts.log ?? silentLogger,
    newId: opts.newId ?? (() => randomBytes(32).toString('hex')),
  };
}

/** nanoseconds since the epoch, as the CRI stamps times */
export function nanos(ms: number): number {
  return Math.round(ms) * 1e6;
}
