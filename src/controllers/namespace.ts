// The namespace controller: a namespace being deleted (deletionTimestamp set, `kubernetes` in
// spec.finalizers) is emptied of every namespaced object, then finalized through the
// `finalize` subresource, after which the API server removes it. It acts only through the API.

import type { Logger } from '../api/log.ts';
import { isConflict, isNotFound } from '../client/api-error.ts';
import { discoverNamespacedResources } from '../client/discovery.ts';
import { createInformer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { createWorkQueue, type SyncResult } from '../client/work-queue.ts';
import { deletionConditions, mergeConditions, type NamespaceCondition } from './namespace-conditions.ts';
import { deleteNamespaceContent, remainingTotal } from './namespace-content.ts';
import { rfc3339 } from '../api/time.ts';

const finalizerToken = 'kubernetes';

interface Namespace {
  metadata: { name: string; deletionTimestamp?: string; resourceVersion?: string };
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

export interface NamespaceControllerOptions {
  /** namespaces emptied at the same time; Kubernetes' default is 10 */
  workers?: number;
  /** floor of the wait before looking again at a namespace whose content is still going */
  recheckMs?: number;
  now?: () => number;
}

const terminating = (ns: Namespace) => !!ns.metadata?.deletionTimestamp;
const hasToken = (ns: Namespace) => (ns.spec?.finalizers ?? []).includes(finalizerToken);
const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function startNamespaceController(client: Client, log: Logger, opts: NamespaceControllerOptions = {}): { stop(): void } {
  const now = opts.now ?? Date.now;
  const recheckMs = opts.recheckMs ?? 1000;
  const path = (name: string, sub = '') => `/api/v1/namespaces/${encodeURIComponent(name)}${sub}`;

  /** reads the namespace afresh and applies fn, again on a write conflict */
  async function retryOnConflict(name: string, fn: (ns: Namespace) => Promise<Namespace | undefined>): Promise<Namespace | undefined> {
    for (let attempt = 0; ; attempt++) {
      let ns: Namespace;
      try { ns = await client.get<Namespace>(path(name)); } catch (err) { if (isNotFound(err)) return undefined; throw err; }
      try { return await fn(ns); } catch (err) {
        if (isNotFound(err)) return undefined;
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }

  async function sync(name: string): Promise<SyncResult> {
    let ns: Namespace | undefined;
    try { ns = await client.get<Namespace>(path(name)); } catch (err) { if (isNotFound(err)) return; throw err; }
    if (!terminating(ns)) return;
    if (ns.status?.phase !== 'Terminating') {
      ns = await retryOnConflict(name, cur => client.update(path(name, '/status'), { ...cur, status: { ...cur.status, phase: 'Terminating' } }));
      if (!ns) return;
    }
    if (!hasToken(ns)) return;

    const discoveryFailures: string[] = [];
    const resources = await discoverNamespacedResources(client, { onError: (gv, err) => discoveryFailures.push(`${gv}: ${errText(err)}`) });
    const report = await deleteNamespaceContent(client, name, resources, { log, now });

    // conditions are a courtesy to users; failing to write them must not stop the deletion
    const wanted = deletionConditions(report, discoveryFailures);
    await retryOnConflict(name, async cur => {
      const merged = mergeConditions(cur.status?.conditions, wanted, rfc3339(now()));
      return merged ? client.update(path(name, '/status'), { ...cur, status: { ...cur.status, conditions: merged } }) : cur;
    }).catch(err => log.debug('namespace conditions not updated', { namespace: name, err: errText(err) }));

    if (discoveryFailures.length || report.failures.length) {
      throw new Error(`namespace ${name}: content deletion incomplete: ${[...discoveryFailures, ...report.failures].join('; ')}`);
    }
    const left = remainingTotal(report);
    if (left > 0) {
      log.debug('namespace content remaining', { namespace: name, remaining: Object.fromEntries(report.remaining), estimateSeconds: report.estimateSeconds });
      // half the graceful-deletion estimate, as Kubernetes waits: deletions often finish early
      return { requeueAfterMs: Math.max(recheckMs, (report.estimateSeconds / 2 + 1) * 1000) };
    }

    await retryOnConflict(name, async cur => {
      if (!hasToken(cur)) return cur;
      const finalizers = (cur.spec?.finalizers ?? []).filter(f => f !== finalizerToken);
      return client.update(path(name, '/finalize'), { ...cur, spec: { ...cur.spec, finalizers } });
    });
    log.info('namespace finalized', { namespace: name });
  }

  const queue = createWorkQueue(sync, { concurrency: opts.workers ?? 5, baseDelayMs: 200, maxDelayMs: 60_000, log });
  const consider = (ns: Namespace) => { if (terminating(ns) && hasToken(ns)) queue.add(ns.metadata.name); };
  const informer = createInformer<Namespace>(client, '/api/v1/namespaces', { log })
    .on('add', consider)
    .on('update', (_old, ns) => consider(ns));
  informer.start();
  return {
    stop() {
      informer.stop();
      queue.shutdown();
    },
  };
}
