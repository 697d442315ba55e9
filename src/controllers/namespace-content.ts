// Emptying one namespace: every namespaced resource that can be deleted is deleted (as a
// collection where the server allows it, else object by object), then listed again to see
// what is left, which finalizers hold it, and how long graceful pod deletion may still take.

import type { Logger } from '../api/log.ts';
import { isMethodNotAllowed, isNotFound } from '../client/api-error.ts';
import type { DiscoveredResource } from '../client/discovery.ts';
import { resourcePath } from '../client/paths.ts';
import type { Client, DeleteOptions } from '../client/rest.ts';

export interface ContentReport {
  /** "resource.group" (core: "pods.") → objects still there */
  remaining: Map<string, number>;
  /** finalizer → objects it still holds */
  finalizers: Map<string, number>;
  /** resources whose deletion failed, with why */
  failures: string[];
  /** seconds until the slowest graceful deletion is due (0: none pending) */
  estimateSeconds: number;
}

interface Item {
  metadata: { name: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] };
}

// dependents are left to the garbage collector, as Kubernetes' namespace controller does
const background: DeleteOptions = { propagationPolicy: 'Background' };

export async function deleteNamespaceContent(
  client: Client, namespace: string, resources: DiscoveredResource[],
  opts: { log?: Logger; now?: () => number; parallel?: number } = {},
): Promise<ContentReport> {
  const now = opts.now ?? Date.now;
  const report: ContentReport = { remaining: new Map(), finalizers: new Map(), failures: [], estimateSeconds: 0 };
  const deletable = resources.filter(r => r.verbs.includes('delete') && r.verbs.includes('list'));

  async function one(r: DiscoveredResource): Promise<void> {
    const path = resourcePath({ ...r, namespace });
    const label = `${r.resource}.${r.group}`;
    const list = async () => (await client.list<{ items?: Item[] }>(path)).items ?? [];
    try {
      // most resources are empty: one read, no writes
      const before = await list();
      if (before.length === 0) return;
      let eachNeeded = !r.verbs.includes('deletecollection');
      if (!eachNeeded) {
        try { await client.deleteCollection(path, undefined, background); } catch (err) {
          if (!isMethodNotAllowed(err) && !isNotFound(err)) throw err;
          eachNeeded = true;
        }
      }
      if (eachNeeded) {
        for (const item of before) {
          if (item.metadata.deletionTimestamp) continue;
          await client.delete(`${path}/${encodeURIComponent(item.metadata.name)}`, background).catch(err => { if (!isNotFound(err)) throw err; });
        }
      }
      const after = await list();
      if (after.length === 0) return;
      report.remaining.set(label, after.length);
      for (const item of after) {
        for (const f of item.metadata.finalizers ?? []) report.finalizers.set(f, (report.finalizers.get(f) ?? 0) + 1);
        const m = item.metadata;
        if (m.deletionTimestamp && m.deletionGracePeriodSeconds) {
          const due = (Date.parse(m.deletionTimestamp) - now()) / 1000;
          report.estimateSeconds = Math.max(report.estimateSeconds, Math.ceil(due));
        }
      }
    } catch (err) {
      opts.log?.warn('deleting namespace content failed', { namespace, resource: label, err: err instanceof Error ? err.message : String(err) });
      report.failures.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // resources are independent; a few at a time keeps deletion quick without flooding the server
  const queue = [...deletable];
  const workers = Array.from({ length: Math.min(opts.parallel ?? 8, queue.length) }, async () => {
    for (let r = queue.shift(); r; r = queue.shift()) await one(r);
  });
  await Promise.all(workers);
  return report;
}

export function remainingTotal(report: ContentReport): number {
  let n = 0;
  for (const c of report.remaining.values()) n += c;
  return n;
}
