// The disruption controller: each PodDisruptionBudget's status (expected, desired and current
// healthy pods, disruptions allowed, the DisruptionAllowed condition), recomputed when its pods
// change and now and then for the scale of their controllers. Decisions are budget-status.ts's.

import type { Logger } from '../../api/log.ts';
import { labelSelectorFromObject, matchesLabels } from '../../api/selectors/label.ts';
import { rfc3339 } from '../../api/time.ts';
import { isConflict, isNotFound } from '../../client/api-error.ts';
import { eventRecorder } from '../../client/events.ts';
import { objectKey } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import { createWorkQueue } from '../../client/work-queue.ts';
import type { Pod } from '../endpoints/pod-endpoint.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { countHealthy, disruptedPods, expectedAndDesired, failSafeStatus, needsScale, nextStatus, type Budget, type BudgetStatus } from './budget-status.ts';
import { ScaleTargets } from '../scale-targets.ts';
import { expectedScale } from './expected-scale.ts';
import { goLabelSelector } from './go-selector-string.ts';

export interface DisruptionControllerOptions {
  informers: InformerFactory;
  /** how often every budget is looked at again, for changes of its controllers' scale */
  resyncMs?: number;
  now?: () => number;
}

function selects(pdb: Budget, labels: Record<string, string> | undefined): boolean {
  try { return matchesLabels(labelSelectorFromObject(pdb.spec?.selector), labels); } catch { return false; }
}

export function startDisruptionController(client: Client, log: Logger, opts: DisruptionControllerOptions): { stop(): void } {
  const now = opts.now ?? Date.now;
  const budgets = opts.informers.informer<Budget>('/apis/policy/v1/poddisruptionbudgets');
  const pods = opts.informers.informer<Pod>('/api/v1/pods');
  // a budget is synced on every change of its pods: a repeated event is counted, not made again
  const events = eventRecorder(client, 'controllermanager', log, undefined, Date.now, { correlate: true });
  const synced = Promise.all([budgets.synced(), pods.synced()]);
  const scales = new ScaleTargets(client);
  const statusPath = (pdb: Budget) => `/apis/policy/v1/namespaces/${encodeURIComponent(pdb.metadata.namespace)}/poddisruptionbudgets/${encodeURIComponent(pdb.metadata.name)}/status`;
  const target = (pdb: Budget) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: pdb.metadata });

  async function writeStatus(pdb: Budget, status: BudgetStatus) {
    await client.update(statusPath(pdb), { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status });
  }

  async function trySync(pdb: Budget): Promise<number | undefined> {
    let selector;
    try { selector = labelSelectorFromObject(pdb.spec?.selector); } catch (err) {
      events.record(target(pdb), 'Warning', 'NoPods', `Failed to get pods: ${(err as Error).message}`);
      throw err;
    }
    const selected = pods.list().filter(p => p.metadata.namespace === pdb.metadata.namespace && matchesLabels(selector, p.metadata.labels));
    if (!selected.length) events.record(target(pdb), 'Normal', 'NoPods', 'No matching pods found');

    let scale = 0;
    if (needsScale(pdb)) {
      let found;
      try { found = await expectedScale(client, pdb.metadata.namespace, selected, scales); } catch (err) {
        events.record(target(pdb), 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(err as Error).message}`);
        throw err;
      }
      scale = found.expected;
      if (found.unmanaged.length) {
        events.record(target(pdb), 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${goLabelSelector(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`);
      }
    }
    const { expectedCount, desiredHealthy } = expectedAndDesired(pdb, selected.length, scale);
    const t = now();
    const disrupted = disruptedPods(selected, pdb.status?.disruptedPods, t);
    const status = nextStatus(pdb, { currentHealthy: countHealthy(selected, disrupted.map), desiredHealthy, expectedCount, disrupted: disrupted.map }, rfc3339(t));
    if (status) await writeStatus(pdb, status);
    return disrupted.recheckAt;
  }

  async function sync(key: string) {
    await synced;
    const pdb = budgets.get(key);
    if (!pdb) return;
    try {
      const recheckAt = await trySync(pdb);
      return recheckAt !== undefined ? { requeueAfterMs: Math.max(0, recheckAt - now()) } : undefined;
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) throw err;
      log.debug('pod disruption budget sync failed', { pdb: key, err: String(err) });
      await writeStatus(pdb, failSafeStatus(pdb, (err as Error).message, rfc3339(now())));
      return { requeueAfterMs: opts.resyncMs ?? 30_000 };
    }
  }

  const queue = createWorkQueue(sync, { concurrency: 3, baseDelayMs: 100, maxDelayMs: 30_000, log });
  budgets.on('add', b => queue.add(objectKey(b))).on('update', (_o, b) => queue.add(objectKey(b)));
  const podChanged = (...ps: Pod[]) => {
    for (const b of budgets.list()) {
      if (b.metadata.namespace === ps[0]!.metadata.namespace && ps.some(p => selects(b, p.metadata.labels))) queue.add(objectKey(b));
    }
  };
  pods.on('add', p => podChanged(p)).on('update', (o, p) => podChanged(o, p)).on('delete', p => podChanged(p));
  const resync = setInterval(() => { for (const b of budgets.list()) if (needsScale(b)) queue.add(objectKey(b)); }, opts.resyncMs ?? 30_000);
  resync.unref();
  return { stop() { clearInterval(resync); queue.shutdown(); } };
}
