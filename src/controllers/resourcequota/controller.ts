// The resourcequota controller: each ResourceQuota's status.hard copied from spec.hard and
// status.used counted from the objects of its namespace (api/quota/usage.ts decides), again
// whenever the quota changes, when an object it counts changes what it costs (a pod finishing, a
// claim deleted), and every sync period (--resource-quota-sync-period, 5 minutes by default), so
// that usage the admission plugin charged for a create that then failed is given back.

import type { Logger } from '../../api/log.ts';
import type { Quota } from '../../api/quota/admission-check.ts';
import { evaluatorFor } from '../../api/quota/evaluators.ts';
import { equals } from '../../api/quota/resource-list.ts';
import { calculateUsage, countedResources, nextQuotaStatus, type GroupResource } from '../../api/quota/usage.ts';
import { objectKey } from '../../client/informer.ts';
import { byNamespace } from '../../client/namespace-index.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { countedObjects } from './counted-objects.ts';

export interface ResourceQuotaControllerOptions {
  informers: InformerFactory;
  /** --resource-quota-sync-period: every quota is counted afresh this often */
  resyncMs?: number;
  /** --concurrent-resource-quota-syncs */
  workers?: number;
  now?: () => number;
}

type Stored = Quota & { metadata: { name: string; namespace: string; resourceVersion?: string } };

const grKey = (gr: GroupResource) => `${gr.resource}.${gr.group}`;

export function startResourceQuotaController(client: Client, log: Logger, opts: ResourceQuotaControllerOptions): { stop(): void } {
  const now = opts.now ?? Date.now;
  const quotas = opts.informers.informer<Stored>('/api/v1/resourcequotas');
  const quotasIn = byNamespace(quotas);
  const counted = (q: Stored) => countedResources(Object.keys(q.spec?.hard ?? {}));

  // an object's change matters to the quotas of its namespace that count its collection, and
  // only when what it costs changed (a status write of a running pod costs nothing more)
  function objectChanged(gr: GroupResource, oldObj: any, obj: any): void {
    const ns = obj?.metadata?.namespace;
    if (!ns) return;
    const affected = quotasIn(ns).filter(q => counted(q).some(c => grKey(c) === grKey(gr)));
    if (!affected.length) return;
    if (oldObj) {
      const e = evaluatorFor(gr.group, gr.resource);
      if (equals(e.usage(oldObj, now()), e.usage(obj, now()))) return;
    }
    for (const q of affected) queue.add(objectKey(q));
  }
  const objects = countedObjects(client, log, opts.informers, objectChanged);

  async function sync(key: string) {
    await quotas.synced();
    const q = quotas.get(key);
    if (!q) return;
    const lists: Array<GroupResource & { items: any[] }> = [];
    for (const gr of counted(q)) {
      const c = await objects.collection(gr);
      if (!c) continue; // not served: its figure stays as last written
      await c.informer.synced();
      lists.push({ ...gr, items: c.objectsIn(q.metadata.namespace) });
    }
    const status = nextQuotaStatus(q, calculateUsage(q, lists, now()));
    if (!status) return;
    const path = `/api/v1/namespaces/${encodeURIComponent(q.metadata.namespace)}/resourcequotas/${encodeURIComponent(q.metadata.name)}/status`;
    // the quota's resourceVersion guards the write: admission may have charged it meanwhile,
    // and a conflict is retried with the quota as it is then
    await client.update(path, { apiVersion: 'v1', kind: 'ResourceQuota', ...q, status });
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 100, maxDelayMs: 30_000, log });
  quotas.on('add', q => queue.add(objectKey(q)))
    // status writes (its own, and admission's charges) need no recount; a change of spec.hard does
    .on('update', (o, q) => { if (!equals(o.spec?.hard, q.spec?.hard)) queue.add(objectKey(q)); });
  const resync = setInterval(() => { for (const q of quotas.list()) queue.add(objectKey(q)); }, opts.resyncMs ?? 5 * 60_000);
  resync.unref();
  return { stop() { clearInterval(resync); queue.shutdown(); objects.stop(); } };
}
