// The pod lifecycle event generator: relists the runtime every second and compares the result
// with the previous relist. A container that appeared, started, died or vanished (or a sandbox
// that changed) wakes its pod's worker. A relist that has not finished for three minutes makes
// the node not ready, as the kubelet's "PLEG is not healthy" does.

import { formatDuration } from '../../api/duration.ts';
import type { Logger } from '../../api/log.ts';
import type { Clock } from '../clock.ts';
import type { RuntimeSnapshot, SnapshotReader } from './runtime-snapshot.ts';

export type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged' | 'SandboxChanged';

export interface PlegEvent { uid: string; type: PlegEventType; id: string }

export interface Pleg {
  /** undefined when healthy, else the reason the node is not ready */
  unhealthy(): string | undefined;
  /** relist now (the loop also relists every period) */
  relist(): Promise<RuntimeSnapshot | undefined>;
  stop(): void;
}

export const PLEG_RELIST_THRESHOLD_MS = 3 * 60_000;

function fingerprint(snap: RuntimeSnapshot): Map<string, { uid: string; kind: 'c' | 's'; state: string }> {
  const out = new Map<string, { uid: string; kind: 'c' | 's'; state: string }>();
  for (const p of snap.pods.values()) {
    for (const s of p.sandboxes) out.set(s.id, { uid: p.uid, kind: 's', state: s.state });
    for (const c of p.containers) out.set(c.id, { uid: p.uid, kind: 'c', state: c.state });
  }
  return out;
}

/** the events between two relists, in a stable order */
export function diffSnapshots(before: RuntimeSnapshot | undefined, after: RuntimeSnapshot): PlegEvent[] {
  const a = before ? fingerprint(before) : new Map();
  const b = fingerprint(after);
  const events: PlegEvent[] = [];
  for (const [id, now] of b) {
    const was = a.get(id);
    if (was?.state === now.state) continue;
    if (now.kind === 's') events.push({ uid: now.uid, type: 'SandboxChanged', id });
    else if (now.state === 'CONTAINER_RUNNING') events.push({ uid: now.uid, type: 'ContainerStarted', id });
    else if (now.state === 'CONTAINER_EXITED') events.push({ uid: now.uid, type: 'ContainerDied', id });
    else events.push({ uid: now.uid, type: 'ContainerChanged', id });
  }
  for (const [id, was] of a) {
    if (b.has(id)) continue;
    events.push({ uid: was.uid, type: was.kind === 's' ? 'SandboxChanged' : 'ContainerRemoved', id });
  }
  return events;
}

export interface PlegOptions {
  reader: SnapshotReader;
  clock: Clock;
  log: Logger;
  periodMs?: number;
  onEvents(events: PlegEvent[], snapshot: RuntimeSnapshot): void;
}

export function startPleg(opts: PlegOptions): Pleg {
  const period = opts.periodMs ?? 1000;
  let lastDone = opts.clock.now();
  let previous: RuntimeSnapshot | undefined;
  let running: Promise<RuntimeSnapshot | undefined> | undefined;
  let stopped = false;
  let timer: { cancel(): void } | undefined;

  async function relistOnce(): Promise<RuntimeSnapshot | undefined> {
    try {
      const snap = await opts.reader.read();
      const events = diffSnapshots(previous, snap);
      previous = snap;
      lastDone = opts.clock.now();
      if (events.length) opts.onEvents(events, snap);
      return snap;
    } catch (err) {
      opts.log.warn('runtime relist failed', { err: String(err) });
      return undefined;
    }
  }

  const relist = () => (running ??= relistOnce().finally(() => { running = undefined; }));
  const loop = async () => {
    if (stopped) return;
    await relist();
    if (!stopped) timer = opts.clock.after(period, loop);
  };
  void loop();

  return {
    relist,
    unhealthy() {
      const idle = opts.clock.now() - lastDone;
      if (idle <= PLEG_RELIST_THRESHOLD_MS) return undefined;
      return `PLEG is not healthy: pleg was last seen active ${formatDuration(idle * 1e6)} ago; threshold is 3m0s`;
    },
    stop() { stopped = true; timer?.cancel(); },
  };
}
