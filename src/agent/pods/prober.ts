// Probe workers: one per running container and probe kind, started after initialDelaySeconds
// and repeated every periodSeconds. A result counts once it repeats successThreshold or
// failureThreshold times. Readiness starts out failing; liveness and readiness wait until a
// startup probe has passed; liveness and startup failures ask the pod's worker to restart the
// container. Every change of a result wakes the pod's worker.

import type { Clock } from '../clock.ts';
import type { CriClient } from '../cri/client.ts';
import { checkProbe, type ProbeResult } from './probe-check.ts';
import type { CoreV1Probe } from '../../schema/generated/types.ts';
import type { Container, Pod } from './types.ts';

type Kind = 'startup' | 'liveness' | 'readiness';
const probeField: Record<Kind, 'startupProbe' | 'livenessProbe' | 'readinessProbe'> = { startup: 'startupProbe', liveness: 'livenessProbe', readiness: 'readinessProbe' };
const label: Record<Kind, string> = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' };

export interface RunningContainer { id: string; container: Container; startedAtMs: number }

interface Worker {
  kind: Kind;
  containerId: string;
  ok: boolean | undefined;
  successes: number;
  failures: number;
  timer?: { cancel(): void };
  stopped: boolean;
}

export interface Prober {
  /** the running containers of a pod now; workers start for new containers and stop for gone ones */
  sync(pod: Pod, running: RunningContainer[], podIP: string): void;
  ready(uid: string): Map<string, boolean>;
  started(uid: string): Map<string, boolean>;
  /** liveness or startup failures that must restart a container, by name */
  failures(uid: string): Map<string, string>;
  forget(uid: string): void;
  stop(): void;
}

export interface ProberOptions {
  cri?: CriClient;
  /** one attempt, when not through the CRI and the network (simulated nodes run their own) */
  check?: (probe: CoreV1Probe, containerId: string, uid: string) => Promise<ProbeResult>;
  clock: Clock;
  wake(uid: string): void;
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export function startProber(opts: ProberOptions): Prober {
  const pods = new Map<string, Map<string, Worker>>();
  const current = new Map<string, { pod: Pod; podIP: string }>();

  const key = (name: string, kind: Kind) => `${name}/${kind}`;
  const result = (uid: string, name: string, kind: Kind) => pods.get(uid)?.get(key(name, kind));

  function schedule(uid: string, rc: RunningContainer, w: Worker, delayMs: number): void {
    if (w.stopped) return;
    w.timer = opts.clock.after(delayMs, () => void tick(uid, rc, w));
  }

  async function tick(uid: string, rc: RunningContainer, w: Worker): Promise<void> {
    if (w.stopped) return;
    const probe = rc.container[probeField[w.kind]]!;
    const period = (probe.periodSeconds ?? 10) * 1000;
    const startup = result(uid, rc.container.name, 'startup');
    // liveness and readiness begin once the startup probe has passed; a passed startup probe stops
    if ((w.kind !== 'startup' && startup && startup.ok !== true) || (w.kind === 'startup' && w.ok === true)) return schedule(uid, rc, w, period);
    const at = current.get(uid);
    if (!at) return;
    const r = opts.check ? await opts.check(probe, rc.id, uid) : await checkProbe(probe, { cri: opts.cri!, containerId: rc.id, container: rc.container, podIP: at.podIP });
    if (w.stopped) return;
    const was = w.ok;
    if (r.ok) {
      w.failures = 0;
      w.successes++;
      if (w.successes >= (w.kind === 'readiness' ? probe.successThreshold ?? 1 : 1)) w.ok = true;
    } else {
      w.successes = 0;
      w.failures++;
      opts.event(at.pod, 'Warning', 'Unhealthy', `${label[w.kind]} probe failed: ${r.output.trim()}`);
      if (w.failures >= (probe.failureThreshold ?? 3)) w.ok = false;
    }
    if (was !== w.ok) opts.wake(uid);
    schedule(uid, rc, w, period);
  }

  return {
    sync(pod, running, podIP) {
      const uid = pod.metadata.uid;
      current.set(uid, { pod, podIP });
      let workers = pods.get(uid);
      if (!workers) pods.set(uid, workers = new Map());
      const want = new Set<string>();
      for (const rc of running) {
        for (const kind of ['startup', 'liveness', 'readiness'] as Kind[]) {
          const probe = rc.container[probeField[kind]];
          if (!probe) continue;
          const k = key(rc.container.name, kind);
          want.add(k);
          const have = workers.get(k);
          if (have && have.containerId === rc.id) continue;
          if (have) { have.stopped = true; have.timer?.cancel(); }
          const w: Worker = { kind, containerId: rc.id, ok: undefined, successes: 0, failures: 0, stopped: false };
          workers.set(k, w);
          const delay = Math.max(0, rc.startedAtMs + (probe.initialDelaySeconds ?? 0) * 1000 - opts.clock.now());
          schedule(uid, rc, w, delay);
        }
      }
      for (const [k, w] of workers) if (!want.has(k)) { w.stopped = true; w.timer?.cancel(); workers.delete(k); }
    },
    ready(uid) {
      const out = new Map<string, boolean>();
      for (const [k, w] of pods.get(uid) ?? []) if (w.kind === 'readiness') out.set(k.slice(0, k.lastIndexOf('/')), w.ok === true);
      return out;
    },
    started(uid) {
      const out = new Map<string, boolean>();
      for (const [k, w] of pods.get(uid) ?? []) if (w.kind === 'startup') out.set(k.slice(0, k.lastIndexOf('/')), w.ok === true);
      return out;
    },
    failures(uid) {
      const out = new Map<string, string>();
      for (const [k, w] of pods.get(uid) ?? []) {
        if (w.ok !== false || w.kind === 'readiness') continue;
        const name = k.slice(0, k.lastIndexOf('/'));
        out.set(name, `Container ${name} failed ${w.kind} probe, will be restarted`);
      }
      return out;
    },
    forget(uid) {
      for (const w of pods.get(uid)?.values() ?? []) { w.stopped = true; w.timer?.cancel(); }
      pods.delete(uid);
      current.delete(uid);
    },
    stop() {
      for (const uid of [...pods.keys()]) this.forget(uid);
    },
  };
}
