// The node's heartbeat: a Lease in kube-node-lease named after the node, renewed every quarter
// of its duration (10 s for the default 40 s). A failed renewal is retried with exponential
// backoff from 200 ms, capped at 7 s, until one succeeds; then the normal interval resumes.
// As the kubelet does, a renewal updates the lease it last wrote without reading it first, and
// reads it again only when that update conflicts or finds it gone: one request per heartbeat.

import type { Logger } from '../../api/log.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import { Backoff } from '../../api/backoff.ts';
import { rfc3339Micro } from '../../api/time.ts';

export const leaseNamespace = 'kube-node-lease';

export interface LeaseOptions {
  client: Client;
  nodeName: string;
  leaseDurationSeconds: number;
  clock: Clock;
  log: Logger;
  /** the Node's uid, for the lease's owner reference (so deleting the node deletes its lease) */
  nodeUid?: () => string | undefined;
  /** called after every renewal attempt, for health checks */
  onRenew?: (ok: boolean, at: number) => void;
  /**
   * a fraction of the interval added at random to each wait (the kubelet's 0.04), and a first
   * renewal put off by up to a whole interval: many nodes started together do not renew together
   */
  jitter?: { fraction: number; random?: () => number };
}

interface Lease {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; resourceVersion?: string; ownerReferences?: unknown[] };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; [k: string]: unknown };
}

export const renewIntervalMs = (leaseDurationSeconds: number) => leaseDurationSeconds * 250;

export function startLeaseHeartbeat(opts: LeaseOptions): { stop(): void; renewNow(): Promise<void> } {
  const path = `/apis/coordination.k8s.io/v1/namespaces/${leaseNamespace}/leases`;
  const retry = new Backoff({ initialMs: 200, maxMs: 7000 });
  let timer: { cancel(): void } | undefined;
  let stopped = false;

  function ownerReferences(): unknown[] | undefined {
    const uid = opts.nodeUid?.();
    return uid ? [{ apiVersion: 'v1', kind: 'Node', name: opts.nodeName, uid }] : undefined;
  }

  let latest: Lease | undefined;

  async function renew(): Promise<void> {
    const spec = { holderIdentity: opts.nodeName, leaseDurationSeconds: opts.leaseDurationSeconds, renewTime: rfc3339Micro(opts.clock.now()) };
    if (latest) {
      try {
        latest = await opts.client.update<Lease>(`${path}/${opts.nodeName}`, { ...latest, spec: { ...latest.spec, ...spec } });
        return;
      } catch (err) {
        latest = undefined;
        if (!isConflict(err) && !isNotFound(err)) throw err;
      }
    }
    let current: Lease | undefined;
    try { current = await opts.client.get<Lease>(`${path}/${opts.nodeName}`); } catch (err) { if (!isNotFound(err)) throw err; }
    if (!current) {
      const owners = ownerReferences();
      const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: opts.nodeName, namespace: leaseNamespace, ...(owners ? { ownerReferences: owners } : {}) }, spec };
      try { latest = await opts.client.create<Lease>(path, lease); return; } catch (err) { if (!isAlreadyExists(err)) throw err; }
      current = await opts.client.get<Lease>(`${path}/${opts.nodeName}`);
    }
    const owners = current.metadata.ownerReferences?.length ? current.metadata.ownerReferences : ownerReferences();
    latest = await opts.client.update<Lease>(`${path}/${opts.nodeName}`, { ...current, metadata: { ...current.metadata, ...(owners ? { ownerReferences: owners } : {}) }, spec: { ...current.spec, ...spec } });
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    let delay: number;
    try {
      await renew();
      retry.reset();
      opts.onRenew?.(true, opts.clock.now());
      delay = interval();
    } catch (err) {
      opts.onRenew?.(false, opts.clock.now());
      delay = retry.next();
      opts.log.warn('failed to renew the node lease; retrying', { node: opts.nodeName, retryInMs: delay, err: String((err as Error).message ?? err) });
    }
    if (!stopped) timer = opts.clock.after(delay, () => void tick());
  }

  const random = opts.jitter?.random ?? Math.random;
  const interval = () => renewIntervalMs(opts.leaseDurationSeconds) * (1 + (opts.jitter?.fraction ?? 0) * random());
  if (opts.jitter) timer = opts.clock.after(Math.floor(random() * renewIntervalMs(opts.leaseDurationSeconds)), () => void tick());
  else void tick();
  return {
    stop() { stopped = true; timer?.cancel(); },
    renewNow: () => renew(),
  };
}
