// One object of a fixed name in every active namespace, made when missing and put right when
// changed: the shape shared by the service account controller (the `default` ServiceAccount) and
// the root CA publisher (the `kube-root-ca.crt` ConfigMap). Namespaces are the queue's keys.

import type { Logger } from '../../api/log.ts';
import { isAlreadyExists, isNotFound } from '../../client/api-error.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { InformerFactory } from '../informer-factory.ts';

interface Namespace { metadata: { name: string; deletionTimestamp?: string }; status?: { phase?: string } }
interface Named { metadata: { name: string; namespace?: string; resourceVersion?: string; [k: string]: any }; [k: string]: any }

export interface PerNamespaceObject<T extends Named> {
  /** the collection under /api/v1/namespaces/<ns>/, e.g. serviceaccounts */
  resource: string;
  name: string;
  /** the object to create */
  fresh(): T;
  /** the current object put right, or undefined when it is right already */
  corrected?(current: T): T | undefined;
}

/** whether a namespace takes new objects: Active, not being deleted */
export const namespaceActive = (ns: Namespace | undefined) => !!ns && !ns.metadata.deletionTimestamp && (ns.status?.phase ?? 'Active') === 'Active';

/** a create refused because the namespace is going (or gone): nothing to retry */
function namespaceGoing(err: unknown): boolean {
  const causes = (err as { status?: { details?: { causes?: Array<{ type?: string }> } } })?.status?.details?.causes ?? [];
  return isNotFound(err) || causes.some(c => c.type === 'NamespaceTerminating');
}

export function startPerNamespaceController<T extends Named>(client: Client, log: Logger, informers: InformerFactory, spec: PerNamespaceObject<T>): { stop(): void } {
  const namespaces = informers.informer<Namespace>('/api/v1/namespaces');
  const objects = informers.informer<T>(`/api/v1/${spec.resource}`, `metadata.name=${spec.name}`);
  const synced = Promise.all([namespaces.synced(), objects.synced()]);
  const path = (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/${spec.resource}`;

  async function sync(ns: string) {
    await synced;
    if (!namespaceActive(namespaces.get(ns))) return;
    const current = objects.get(`${ns}/${spec.name}`);
    if (!current) {
      try {
        await client.create(path(ns), spec.fresh());
      } catch (err) {
        if (isAlreadyExists(err) || namespaceGoing(err)) return;
        throw err;
      }
      return;
    }
    const next = spec.corrected?.(current);
    if (next) await client.update(`${path(ns)}/${encodeURIComponent(spec.name)}`, next).catch(err => { if (!isNotFound(err)) throw err; });
  }

  const queue = createWorkQueue(sync, { concurrency: 5, baseDelayMs: 100, maxDelayMs: 30_000, log });
  namespaces.on('add', ns => queue.add(ns.metadata.name)).on('update', (_o, ns) => { if (namespaceActive(ns)) queue.add(ns.metadata.name); });
  const owner = (o: T) => { if (o.metadata.name === spec.name && o.metadata.namespace) queue.add(o.metadata.namespace); };
  objects.on('update', (_o, o) => owner(o)).on('delete', owner);
  return { stop() { queue.shutdown(); } };
}
