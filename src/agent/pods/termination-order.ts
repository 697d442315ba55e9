// The order a pod's containers stop in, as Kubernetes' sidecar containers ask: every regular
// container first, then the sidecars (restartable init containers) one at a time, last declared
// first, so a sidecar outlives what depends on it. Every container's preStop hook still runs at
// once at the start; only the runtime's stop waits for its turn, and never past the grace period.

import type { Clock } from '../../api/clock.ts';
import { isSidecar } from './restart-policy.ts';
import type { Pod } from './types.ts';

/** for each container name, the containers that must have stopped before it stops */
export function terminationPrereqs(pod: Pod, running: readonly string[]): Map<string, string[]> {
  const live = new Set(running);
  const regular = pod.spec.containers.map(c => c.name).filter(n => live.has(n));
  const out = new Map<string, string[]>();
  let later: string | undefined;
  for (const c of [...(pod.spec.initContainers ?? [])].reverse()) {
    if (!isSidecar(c)) continue;
    out.set(c.name, later && live.has(later) ? [...regular, later] : [...regular]);
    later = c.name;
  }
  return out;
}

export interface TerminationOrdering {
  /** resolves when every prerequisite of `name` has stopped, or after `maxMs` */
  waitForTurn(name: string, maxMs: number): Promise<void>;
  /** `name` has stopped (or its stop failed): those waiting on it go on */
  terminated(name: string): void;
}

export function terminationOrdering(prereqs: Map<string, string[]>, clock: Pick<Clock, 'after'>): TerminationOrdering {
  const done = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const gate = (name: string) => {
    let g = done.get(name);
    if (!g) {
      let resolve!: () => void;
      const promise = new Promise<void>(r => { resolve = r; });
      done.set(name, g = { promise, resolve });
    }
    return g;
  };
  return {
    async waitForTurn(name, maxMs) {
      const before = prereqs.get(name) ?? [];
      if (!before.length || maxMs <= 0) return;
      let timer: { cancel(): void } | undefined;
      const expired = new Promise<void>(r => { timer = clock.after(maxMs, r); });
      await Promise.race([Promise.all(before.map(n => gate(n).promise)), expired]);
      timer?.cancel();
    },
    terminated(name) { gate(name).resolve(); },
  };
}
