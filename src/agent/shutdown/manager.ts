// The node shutdown manager, as the kubelet's: at start it makes sure logind allows the delay
// it needs (raising InhibitDelayMaxUSec when short), takes a delay inhibitor lock and listens
// for PrepareForShutdown. On a shutdown the node turns not ready, new pods are refused, the
// pods end range by range (lowest priority first, each range within its period, plan.ts), the
// state file records the start and the end, and the lock is released so the shutdown goes on.
// A cancelled shutdown takes the lock again and the node is ready again. Without a bus or
// logind, the agent says so once and runs on without.

import type { Logger } from '../../api/log.ts';
import type { Clock } from '../clock.ts';
import type { Pod } from '../pods/types.ts';
import type { PodCondition } from '../pods/pod-syncer.ts';
import { connectLogind, type InhibitLock, type Logind, type LogindOptions } from './logind.ts';
import {
  groupByPriority, nodeShutdownNotAdmittedMessage, nodeShutdownNotAdmittedReason, periodRequestedSeconds, podShutdownGracePeriod, shutdownFailure, type PriorityGracePeriod,
} from './plan.ts';
import { writeShutdownState } from './state-file.ts';

export interface ShutdownManagerOptions {
  periods: PriorityGracePeriod[];
  rootDir: string;
  /** keep <root-dir>/graceful_node_shutdown_state (the kubelet does with GracefulNodeShutdownBasedOnPodPriority on); default true */
  stateFile?: boolean;
  logind: LogindOptions;
  /** the pods still running (not finished) */
  pods(): Pod[];
  /** ends a pod Failed with the reason, message and condition; resolves once it has stopped */
  fail(pod: Pod, gracePeriodSeconds: number, why: { reason: string; message: string; condition?: PodCondition; noEvent?: boolean }): Promise<void>;
  /** the node's status reported now (the Ready condition follows shuttingDown()) */
  syncNodeStatus(): void;
  nodeEvent?(reason: string, message: string): void;
  clock: Clock;
  log: Logger;
  /** tests: another way to reach logind */
  connect?: (o: LogindOptions) => Promise<Logind>;
}

export interface ShutdownManager {
  shuttingDown(): boolean;
  /** the refusal for a pod offered while the node shuts down */
  admit(pod: Pod): { reason: string; message: string } | undefined;
  /** resolves once the lock is held and the signal watched (or the manager gave up: see the log) */
  started: Promise<void>;
  /** resolves once the shutdown under way has ended its pods and released the lock */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startShutdownManager(o: ShutdownManagerOptions): ShutdownManager {
  const log = o.log.with({ component: 'shutdown' });
  let logind: Logind | undefined;
  let lock: InhibitLock | undefined;
  let shuttingDown = false;
  let stopped = false;
  let processing: Promise<void> = Promise.resolve();

  async function acquire(): Promise<void> {
    const next = await logind!.inhibitShutdown();
    const old = lock;
    lock = next;
    await old?.release();
  }

  async function release(): Promise<void> {
    const held = lock;
    lock = undefined;
    await held?.release();
  }

  /** the pods ended range by range; a range waits for its pods or its period, whichever is first */
  async function killPods(): Promise<void> {
    for (const group of groupByPriority(o.periods, o.pods())) {
      if (group.pods.length === 0) continue;
      const ended = Promise.all(group.pods.map(async pod => {
        const grace = podShutdownGracePeriod(pod, group);
        log.info('shutdown manager killing pod with gracePeriod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, gracePeriod: grace });
        await o.fail(pod, grace, { ...shutdownFailure(o.clock.now()), noEvent: true }).catch(err => log.warn('shutdown manager failed killing pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: String(err) }));
      }));
      let timer = { cancel() {} };
      const timedOut = new Promise<boolean>(resolve => { timer = o.clock.after(group.shutdownGracePeriodSeconds * 1000, () => resolve(true)); });
      if (await Promise.race([ended.then(() => false), timedOut])) log.info('shutdown manager pod killing time out', { gracePeriod: group.shutdownGracePeriodSeconds, priority: group.priority });
      timer.cancel();
    }
  }

  async function onShutdown(): Promise<void> {
    const startMs = o.clock.now();
    const record = (endMs?: number) => (o.stateFile === false ? Promise.resolve() : writeShutdownState(o.rootDir, startMs, endMs).catch(err => log.error('failed to store graceful shutdown state', { err: String(err) })));
    await record();
    try {
      await killPods();
    } finally {
      await record(o.clock.now());
      await release().catch(err => log.warn('releasing the inhibitor lock failed', { err: String(err) }));
      log.info('shutdown manager completed processing shutdown event, node will shutdown shortly');
    }
  }

  function onSignal(active: boolean): void {
    if (stopped) return;
    log.info('shutdown manager detected new shutdown event', { event: active ? 'shutdown' : 'cancelled' });
    o.nodeEvent?.('NodeShutdown', active ? 'Shutdown manager detected shutdown event' : 'Shutdown manager detected shutdown cancellation');
    shuttingDown = active;
    o.syncNodeStatus();
    processing = processing.then(() => (active ? onShutdown() : acquire().catch(err => log.error('taking the inhibitor lock again failed', { err: String(err) }))));
  }

  /**
   * The connection lost after a good start: the lock went with it (the bus or logind
   * restarted), so every second the manager connects, takes the lock and listens again, as the
   * kubelet does.
   */
  function onLost(): void {
    if (stopped) return;
    log.warn('the system D-Bus connection to logind ended; reconnecting every second');
    logind?.close();
    logind = undefined;
    void release().catch(() => undefined);
    const retry = () => {
      if (stopped) return;
      reconnect = o.clock.after(1000, () => { reconnecting = start(true).then(ok => { if (ok) log.info('node shutdown manager watching for shutdown events again'); else retry(); }); });
    };
    retry();
  }
  let reconnect = { cancel() {} };
  let reconnecting: Promise<void> = Promise.resolve();

  /** true once the lock is held and the signal watched; `quiet` logs nothing on failure (a retry) */
  async function start(quiet = false): Promise<boolean> {
    try {
      logind = await (o.connect ?? connectLogind)(o.logind);
    } catch (err) {
      if (!quiet) log.warn('no system D-Bus to reach logind: graceful node shutdown is off, node shutdown will be immediate', { address: o.logind.address, err: String((err as Error).message ?? err) });
      return false;
    }
    try {
      const requested = periodRequestedSeconds(o.periods);
      const current = await logind.inhibitDelayMaxMs();
      if (requested * 1000 > current) {
        await logind.raiseInhibitDelay(requested).catch(err => { throw new Error(`unable to override inhibit delay by shutdown manager: ${(err as Error).message}`); });
        const updated = await logind.inhibitDelayMaxMs();
        if (requested * 1000 > updated) throw new Error(`node shutdown manager was unable to update logind InhibitDelayMaxSec to ${requested}s (ShutdownGracePeriod), current value of InhibitDelayMaxSec (${updated / 1000}s) is less than requested ShutdownGracePeriod`);
        log.info('raised logind InhibitDelayMaxSec for the shutdown grace period', { from: `${current / 1000}s`, to: `${requested}s` });
      }
      await acquire();
      await logind.onPrepareForShutdown(onSignal);
      logind.onClose(onLost);
      if (!quiet) log.info('node shutdown manager started', { periods: o.periods });
      return true;
    } catch (err) {
      // logind missing (no such name on the bus) or refusing: said once, the agent runs on without
      if (!quiet) log.warn('node shutdown manager could not start: graceful node shutdown is off, node shutdown will be immediate', { err: String((err as Error).message ?? err) });
      await release().catch(() => undefined);
      logind?.close();
      logind = undefined;
      return false;
    }
  }

  const started = start().then(() => undefined);
  return {
    shuttingDown: () => shuttingDown,
    admit: () => (shuttingDown ? { reason: nodeShutdownNotAdmittedReason, message: nodeShutdownNotAdmittedMessage } : undefined),
    started,
    idle: () => processing,
    async stop() {
      stopped = true;
      reconnect.cancel();
      await started;
      await reconnecting;
      await processing;
      await release().catch(() => undefined);
      logind?.close();
    },
  };
}
