// Recording core/v1 Events about objects, as controllers and agents do for users to read in
// `kubectl describe` and `kubectl get events`. Best effort: a failed record never fails the work.

import type { Logger } from '../api/log.ts';
import type { Client } from './rest.ts';
import { rfc3339 } from '../api/time.ts';

export interface EventTarget { apiVersion?: string; kind: string; metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string } }

export interface EventRecorder {
  record(target: EventTarget, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** events are sent a few at a time, so a burst of them never delays the work they describe */
const maxInFlight = 1;

export function eventRecorder(client: Client, component: string, log: Logger, host?: string, now: () => number = Date.now): EventRecorder {
  const queue: Array<{ namespace: string; event: unknown; reason: string }> = [];
  let inFlight = 0;
  const pump = () => {
    while (inFlight < maxInFlight && queue.length) {
      const { namespace, event, reason } = queue.shift()!;
      inFlight++;
      client.create(`/api/v1/namespaces/${encodeURIComponent(namespace)}/events`, event)
        .catch(err => log.debug('event not recorded', { reason, err: String(err) }))
        .finally(() => { inFlight--; pump(); });
    }
  };
  return {
    record(target, type, reason, message) {
      const namespace = target.metadata.namespace || 'default';
      const t = new Date(now());
      const stamp = rfc3339(t);
      const event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${target.metadata.name}.${(t.getTime() * 1e6 + Math.floor(Math.random() * 1e6)).toString(16)}`, namespace },
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
      queue.push({ namespace, event, reason });
      pump();
    },
  };
}
