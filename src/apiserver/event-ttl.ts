// Events expire as kube-apiserver's --event-ttl makes them (one hour by default): Kubernetes
// attaches every Event write to an etcd lease of that length; orch has no leases in SQLite, so
// a sweep deletes each Event whose newest write is older than the TTL. The newest write is the
// latest of the times an Event carries, which every writer moves when it records a repeat.
// Without this, Events are the churn that makes a small cluster's database grow for ever.

import { StatusError } from '../api/status.ts';
import type { KubeObject } from '../api/object.ts';
import type { Logger } from '../api/log.ts';
import type { Registry } from '../registry/registry.ts';
import type { Catalog } from '../schema/types.ts';

export const defaultEventTtlMs = 60 * 60_000;

/** the newest time an Event records of itself, in milliseconds (0 when it names none) */
export function lastWriteOf(event: KubeObject): number {
  const e = event as KubeObject & { lastTimestamp?: string; eventTime?: string; firstTimestamp?: string; series?: { lastObservedTime?: string }; deprecatedLastTimestamp?: string };
  const times = [e.lastTimestamp, e.eventTime, e.firstTimestamp, e.series?.lastObservedTime, e.deprecatedLastTimestamp, e.metadata?.creationTimestamp, ...((e.metadata?.managedFields ?? []) as Array<{ time?: string }>).map(f => f.time)];
  return Math.max(0, ...times.map(t => (t ? Date.parse(t) : 0)).filter(n => Number.isFinite(n)));
}

export interface EventTtl {
  /** one sweep now; resolves to the number of Events deleted */
  sweep(): Promise<number>;
  stop(): void;
}

export function startEventTtl(store: Registry, catalog: Catalog, opts: { ttlMs: number; everyMs?: number; now?: () => number; log?: Logger }): EventTtl {
  const info = catalog.lookup('', 'v1', 'events')!;
  const now = opts.now ?? Date.now;
  let running: Promise<number> | undefined;
  const once = async (): Promise<number> => {
    const cutoff = now() - opts.ttlMs;
    let deleted = 0;
    for (const event of (await store.list(info, undefined)).items) {
      if (lastWriteOf(event) >= cutoff) continue;
      const { namespace, name, resourceVersion } = event.metadata!;
      try {
        // a write since the list renews it, as a write renews the lease in Kubernetes
        await store.delete(info, namespace, name!, { preconditions: { resourceVersion } });
        deleted++;
      } catch (err) {
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    }
    if (deleted) opts.log?.info('expired events deleted', { count: deleted });
    return deleted;
  };
  const sweep = () => (running ??= once().finally(() => { running = undefined; }));
  const timer = setInterval(() => { sweep().catch(err => opts.log?.warn('event expiry failed', { err: String(err) })); }, opts.everyMs ?? Math.min(60_000, opts.ttlMs));
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
