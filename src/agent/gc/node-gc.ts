// The node's housekeeping loops, as the kubelet runs them: dead containers every minute,
// images every 5 minutes (at the image GC thresholds), container logs every
// containerLogMonitorInterval (rotated past containerLogMaxSize). Disk pressure calls reclaim(),
// which removes dead containers and every unused image at once.

import type { Logger } from '../../api/log.ts';
import type { Clock } from '../clock.ts';
import type { CriClient } from '../cri/client.ts';
import type { DiskStats } from '../machine/usage.ts';
import { rotateIfNeeded } from '../logs/log-rotation.ts';
import type { SnapshotReader } from '../pods/runtime-snapshot.ts';
import { deadContainerGarbage, removeGarbage } from './container-gc.ts';
import { imageGc } from './image-gc.ts';

export interface NodeGcOptions {
  cri: CriClient;
  reader: SnapshotReader;
  /** whether a pod UID is one the agent runs */
  known(uid: string): boolean;
  disk: DiskStats;
  imageGCHighThresholdPercent: number;
  imageGCLowThresholdPercent: number;
  imageMinimumGCAgeMs: number;
  containerLogMaxSize: number;
  containerLogMaxFiles: number;
  containerLogMonitorIntervalMs: number;
  clock: Clock;
  log: Logger;
  nodeEvent?(reason: string, message: string): void;
}

export interface NodeGc {
  reclaim(): Promise<void>;
  /** one pass of each loop now (tests) */
  runOnce(): Promise<void>;
  stop(): void;
}

export function startNodeGc(o: NodeGcOptions): NodeGc {
  const log = o.log.with({ component: 'gc' });
  const images = imageGc({ cri: o.cri, disk: o.disk, highThresholdPercent: o.imageGCHighThresholdPercent, lowThresholdPercent: o.imageGCLowThresholdPercent, minAgeMs: o.imageMinimumGCAgeMs, now: () => o.clock.now(), log, nodeEvent: o.nodeEvent });
  const logPaths = new Map<string, string>();
  let stopped = false;
  const loops: Array<{ timer: { cancel(): void } }> = [];

  async function containers(): Promise<void> {
    const snap = await o.reader.read();
    await removeGarbage(o.cri, deadContainerGarbage(snap.pods.values(), o.known), log);
  }

  async function logs(): Promise<void> {
    const running = (await o.cri.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } })).containers ?? [];
    for (const id of logPaths.keys()) if (!running.some(c => c.id === id)) logPaths.delete(id);
    for (const c of running) {
      let path = logPaths.get(c.id);
      if (path === undefined) {
        path = (await o.cri.containerStatus({ containerId: c.id }).catch(() => undefined))?.status?.logPath ?? '';
        logPaths.set(c.id, path);
      }
      if (!path) continue;
      try {
        if (await rotateIfNeeded(path, o.containerLogMaxSize, o.containerLogMaxFiles, o.clock.now(), () => o.cri.reopenContainerLog({ containerId: c.id }))) log.info('container log rotated', { container: c.id, path });
      } catch (err) {
        log.warn('container log not rotated', { container: c.id, path, err: String((err as Error).message ?? err) });
      }
    }
  }

  function every(ms: number, fn: () => Promise<unknown>, what: string): void {
    const loop = { timer: { cancel() {} } };
    const tick = () => {
      if (stopped) return;
      void fn().catch(err => log.warn(`${what} failed`, { err: String((err as Error).message ?? err) })).finally(() => { if (!stopped) loop.timer = o.clock.after(ms, tick); });
    };
    loop.timer = o.clock.after(ms, tick);
    loops.push(loop);
  }
  every(60_000, containers, 'container garbage collection');
  every(5 * 60_000, () => images.garbageCollect(), 'image garbage collection');
  every(o.containerLogMonitorIntervalMs, logs, 'container log rotation');

  return {
    async reclaim() {
      await containers();
      await images.deleteUnused();
    },
    async runOnce() {
      await containers();
      await images.garbageCollect();
      await logs();
    },
    stop() {
      stopped = true;
      for (const l of loops) l.timer.cancel();
    },
  };
}
