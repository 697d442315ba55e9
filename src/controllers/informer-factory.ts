// Informers shared between the controllers of one process, one per collection, as client-go's
// SharedInformerFactory shares them: the endpoints, EndpointSlice, disruption and autoscaler
// controllers all hold every pod and service, and each such collection is listed and watched once.

import type { Logger } from '../api/log.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';

export interface InformerFactory {
  /** the informer of a collection path (e.g. /api/v1/pods), optionally narrowed by a field selector, started on first request */
  informer<T = any>(path: string, fieldSelector?: string): Informer<T extends { metadata?: unknown } ? T : any>;
  stop(): void;
}

/** what no controller reads and every object carries: field history and the last applied configuration */
export function withoutBookkeeping<T extends { metadata?: Record<string, any> }>(obj: T): T {
  const m = obj.metadata;
  if (!m || (!m.managedFields && !m.annotations?.['kubectl.kubernetes.io/last-applied-configuration'])) return obj;
  const { managedFields: _drop, ...meta } = m;
  if (meta.annotations?.['kubectl.kubernetes.io/last-applied-configuration']) {
    const { 'kubectl.kubernetes.io/last-applied-configuration': _last, ...rest } = meta.annotations;
    meta.annotations = rest;
  }
  return { ...obj, metadata: meta };
}

export function createInformerFactory(client: Client, log?: Logger): InformerFactory {
  const informers = new Map<string, Informer>();
  return {
    informer(path, fieldSelector) {
      const key = fieldSelector ? `${path}?fieldSelector=${fieldSelector}` : path;
      let inf = informers.get(key);
      if (!inf) {
        inf = createInformer(client, path, { log, fieldSelector, transform: withoutBookkeeping });
        informers.set(key, inf);
        inf.start();
      }
      return inf;
    },
    stop() {
      for (const inf of informers.values()) inf.stop();
      informers.clear();
    },
  };
}
