// Leader election through a coordination.k8s.io Lease, as client-go's leaderelection runs it for
// kube-controller-manager and kube-scheduler: candidates try every retry period to take or renew
// the lease; a lease held by another is free once it has not changed for its duration, as this
// candidate observed it (its own clock, never the holder's timestamps); a leader that cannot
// renew within the renew deadline stops leading. Stopping releases the lease so a standby takes
// over at once.

import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../api/log.ts';
import { rfc3339Micro } from '../api/time.ts';
import { ApiError, type Client } from './rest.ts';
import type { EventRecorder } from './events.ts';

export interface LeaderElectionOptions {
  client: Client;
  namespace: string;
  name: string;
  /** who holds it: kube-controller-manager's `<hostname>_<uuid>` by default */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  now?: () => number;
  log: Logger;
  events?: EventRecorder;
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

export interface LeaderElection {
  identity: string;
  isLeader(): boolean;
  /** stops campaigning; a leader stops leading and releases the lease */
  stop(): Promise<void>;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}
interface Lease { apiVersion?: string; kind?: string; metadata: { name: string; namespace?: string; resourceVersion?: string; uid?: string }; spec?: LeaseSpec }

export const defaultIdentity = () => `${hostname()}_${randomUUID()}`;

/** whether this candidate may write the lease now: it holds it, nobody does, or the holder let it lapse */
export function mayTake(spec: LeaseSpec | undefined, me: string, observedChangeAt: number, now: number): boolean {
  const holder = spec?.holderIdentity ?? '';
  if (!holder || holder === me) return true;
  return now >= observedChangeAt + (spec?.leaseDurationSeconds ?? 0) * 1000;
}

/** the spec this candidate writes to take or renew the lease */
export function nextSpec(spec: LeaseSpec | undefined, me: string, leaseSeconds: number, now: number): LeaseSpec {
  const at = rfc3339Micro(now);
  const mine = spec?.holderIdentity === me;
  return {
    holderIdentity: me,
    leaseDurationSeconds: leaseSeconds,
    acquireTime: mine && spec?.acquireTime ? spec.acquireTime : at,
    renewTime: at,
    // taking a lease this candidate did not hold (released ones included) is a transition; the
    // first holder of a new lease makes none
    leaseTransitions: (spec?.leaseTransitions ?? 0) + (spec && !mine ? 1 : 0),
  };
}

export function startLeaderElection(o: LeaderElectionOptions): LeaderElection {
  const identity = o.identity ?? defaultIdentity();
  const now = o.now ?? Date.now;
  const leaseMs = o.leaseDurationMs ?? 15_000;
  const renewDeadlineMs = o.renewDeadlineMs ?? 10_000;
  const retryMs = o.retryPeriodMs ?? 2_000;
  const path = `/apis/coordination.k8s.io/v1/namespaces/${o.namespace}/leases/${o.name}`;
  const log = o.log.with({ lease: `${o.namespace}/${o.name}` });
  let leading = false;
  let stopped = false;
  let lastRenewed = 0;
  // the record as last seen, and when this candidate saw it change
  let seen: { resourceVersion?: string; spec?: LeaseSpec } = {};
  let seenChangeAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();

  async function tryAcquireOrRenew(): Promise<boolean> {
    let lease: Lease | undefined;
    try {
      lease = await o.client.get<Lease>(path);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    const t = now();
    if (!lease) {
      const created = await o.client.create<Lease>(`/apis/coordination.k8s.io/v1/namespaces/${o.namespace}/leases`, {
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: o.name, namespace: o.namespace }, spec: nextSpec(undefined, identity, Math.round(leaseMs / 1000), t),
      });
      seen = { resourceVersion: created.metadata.resourceVersion, spec: created.spec };
      seenChangeAt = t;
      return true;
    }
    if (lease.metadata.resourceVersion !== seen.resourceVersion) {
      seen = { resourceVersion: lease.metadata.resourceVersion, spec: lease.spec };
      seenChangeAt = t;
    }
    if (!mayTake(lease.spec, identity, seenChangeAt, t)) return false;
    const updated = await o.client.update<Lease>(path, { ...lease, spec: { ...lease.spec, ...nextSpec(lease.spec, identity, Math.round(leaseMs / 1000), t) } });
    seen = { resourceVersion: updated.metadata.resourceVersion, spec: updated.spec };
    seenChangeAt = t;
    return true;
  }

  async function round(): Promise<void> {
    let ok = false;
    try {
      ok = await tryAcquireOrRenew();
    } catch (err) {
      log.info('lease not taken or renewed', { err: String(err) });
    }
    if (stopped) return;
    if (ok) {
      lastRenewed = now();
      if (!leading) {
        leading = true;
        log.info('became leader', { identity });
        o.events?.record({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: o.name, namespace: o.namespace } }, 'Normal', 'LeaderElection', `${identity} became leader`);
        o.onStartedLeading();
      }
    } else if (leading && now() - lastRenewed >= renewDeadlineMs) {
      leading = false;
      log.warn('leader election lost', { identity });
      o.onStoppedLeading();
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => { running = round().finally(schedule); }, retryMs);
  };
  running = round().finally(schedule);

  return {
    identity,
    isLeader: () => leading,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
      if (!leading) return;
      leading = false;
      o.onStoppedLeading();
      // released: a standby need not wait out the lease
      try {
        const lease = await o.client.get<Lease>(path);
        if (lease.spec?.holderIdentity === identity) {
          const at = rfc3339Micro(now());
          await o.client.update(path, { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: at, acquireTime: at } });
        }
      } catch (err) {
        log.info('lease not released', { err: String(err) });
      }
    },
  };
}
