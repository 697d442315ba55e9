// Recording core/v1 Events about objects, as controllers and agents do for users to read in
// `kubectl describe` and `kubectl get events`. Best effort: a failed record never fails the work.

import type { Logger } from '../api/log.ts';
import type { Client } from './rest.ts';
import { LruMap } from '../api/lru-map.ts';
import { rfc3339 } from '../api/time.ts';

export interface EventTarget { apiVersion?: string; kind: string; metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string } }

export interface EventRecorder {
  record(target: EventTarget, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export interface RecorderOptions {
  /**
   * an event the same as one recorded before (object, type, reason, message) raises that event's
   * count and lastTimestamp instead of making another, as client-go's event correlator does, so
   * `kubectl describe` shows "(x3 over 45s)" for a controller that says the same thing each sync
   */
  correlate?: boolean;
}

/** events remembered for correlation, the oldest forgotten first (client-go keeps 4096) */
const correlationCacheSize = 4096;

/** events are sent a few at a time, so a burst of them never delays the work they describe */
const maxInFlight = 1;

/**
 * client-go's spam filter: a source may say 25 things about one object at once, and one more
 * every 5 minutes after that; the rest are dropped. A ReplicaSet making 1,000 pods writes 25
 * SuccessfulCreate events, not 1,000 (each pod's own events are about the pod, and unaffected).
 */
const spamBurst = 25;
const spamRefillMs = 300_000;
/** objects remembered by the spam filter, the least recently used forgotten first (client-go keeps 4096) */
const spamCacheSize = 4096;

/**
 * An event's name suffix, as client-go's: the time in nanoseconds, in hex; the nanoseconds within
 * the millisecond at random. In whole integers: as a double, milliseconds × 10⁶ holds only
 * multiples of 256 today, and events recorded in one millisecond shared a name a few times in 100.
 */
function eventSuffix(ms: number): string {
  return (BigInt(ms) * 1_000_000n + BigInt(Math.floor(Math.random() * 1e6))).toString(16);
}

export function eventRecorder(client: Client, component: string, log: Logger, host?: string, now: () => number = Date.now, opts: RecorderOptions = {}): EventRecorder {
  type Queued = { namespace: string; event: Record<string, any>; reason: string; repeat?: { name: string; count: number; lastTimestamp: string } };
  const queue: Queued[] = [];
  const seen = new LruMap<string, { name: string; count: number }>(correlationCacheSize);
  const buckets = new LruMap<string, { tokens: number; at: number }>(spamCacheSize);
  /** whether this source may still say something about the object now (and takes the token if so) */
  const allowed = (target: EventTarget, namespace: string): boolean => {
    const key = JSON.stringify([component, host ?? '', target.kind, namespace, target.metadata.name, target.metadata.uid ?? '', target.apiVersion ?? '']);
    const t = now();
    let b = buckets.get(key);
    if (!b) buckets.set(key, b = { tokens: spamBurst, at: t });
    b.tokens = Math.min(spamBurst, b.tokens + (t - b.at) / spamRefillMs);
    b.at = t;
    if (b.tokens < 1) return false;
    b.tokens--;
    return true;
  };
  let inFlight = 0;
  const collection = (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/events`;
  const send = async (q: Queued) => {
    if (!q.repeat) return client.create(collection(q.namespace), q.event);
    const { name, count, lastTimestamp } = q.repeat;
    try {
      return await client.patch(`${collection(q.namespace)}/${encodeURIComponent(name)}`, { count, lastTimestamp }, 'application/strategic-merge-patch+json');
    } catch (err) {
      // the event expired or was deleted: record it afresh, with the count it has reached
      if ((err as { code?: number }).code !== 404) throw err;
      return client.create(collection(q.namespace), { ...q.event, metadata: { ...q.event.metadata, name }, count, lastTimestamp });
    }
  };
  const pump = () => {
    while (inFlight < maxInFlight && queue.length) {
      const q = queue.shift()!;
      inFlight++;
      send(q)
        .catch(err => log.debug('event not recorded', { reason: q.reason, err: String(err) }))
        .finally(() => { inFlight--; pump(); });
    }
  };
  return {
    record(target, type, reason, message) {
      const namespace = target.metadata.namespace || 'default';
      if (!allowed(target, namespace)) return void log.debug('event dropped by the spam filter', { reason, object: `${namespace}/${target.metadata.name}` });
      const t = new Date(now());
      const stamp = rfc3339(t);
      const key = opts.correlate ? JSON.stringify([namespace, target.kind, target.metadata.name, target.metadata.uid, type, reason, message]) : undefined;
      const before = key ? seen.get(key) : undefined;
      const event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${target.metadata.name}.${eventSuffix(t.getTime())}`, namespace },
        involvedObject: { apiVersion: target.apiVersion, kind: target.kind, name: target.metadata.name, namespace: target.metadata.namespace, uid: target.metadata.uid, resourceVersion: target.metadata.resourceVersion },
        reason,
        message,
        type,
        source: { component, ...(host ? { host } : {}) },
        firstTimestamp: stamp,
        lastTimestamp: stamp,
        count: 1,
        reportingComponent: component,
        reportingInstance: host ?? '',
      };
      if (key && before) {
        before.count++;
        queue.push({ namespace, event, reason, repeat: { name: before.name, count: before.count, lastTimestamp: stamp } });
      } else {
        if (key) seen.set(key, { name: event.metadata.name, count: 1 });
        queue.push({ namespace, event, reason });
      }
      pump();
    },
  };
}
