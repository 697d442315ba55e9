// The ClusterRole aggregation controller (kube-controller-manager's
// clusterrole-aggregation-controller): a ClusterRole with an aggregationRule holds the rules of
// every ClusterRole its selectors pick, in name order, without repeats, kept current as those
// roles come, change and go.

import type { Logger } from '../api/log.ts';
import { labelSelectorFromObject, matchesLabels } from '../api/selectors/label.ts';
import { isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/rest.ts';
import { createWorkQueue } from '../client/work-queue.ts';
import type { InformerFactory } from './informer-factory.ts';

interface ClusterRole {
  metadata: { name: string; labels?: Record<string, string>; resourceVersion?: string; [k: string]: unknown };
  rules?: unknown[];
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
  [k: string]: unknown;
}

const path = '/apis/rbac.authorization.k8s.io/v1/clusterroles';

/** the rules an aggregated role should hold, given every ClusterRole */
export function aggregatedRules(role: ClusterRole, all: ClusterRole[]): unknown[] {
  const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map(s => labelSelectorFromObject(s));
  const picked = all
    .filter(r => r.metadata.name !== role.metadata.name && selectors.some(s => matchesLabels(s, r.metadata.labels)))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const r of picked) {
    for (const rule of r.rules ?? []) {
      const key = JSON.stringify(rule);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(rule);
    }
  }
  return out;
}

export function startClusterRoleAggregationController(client: Client, log: Logger, informers: InformerFactory): { stop(): void } {
  const roles = informers.informer<ClusterRole>(path);
  const synced = roles.synced();

  async function sync(name: string) {
    await synced;
    const role = roles.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, roles.list());
    if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return;
    await client.update(`${path}/${encodeURIComponent(name)}`, { ...role, rules }).catch(err => { if (!isNotFound(err)) throw err; });
  }

  const queue = createWorkQueue(sync, { concurrency: 1, baseDelayMs: 100, maxDelayMs: 30_000, log });
  // any change may alter what some aggregated role selects: every aggregated role is looked at again
  const all = () => { for (const r of roles.list()) if (r.aggregationRule) queue.add(r.metadata.name); };
  roles.on('add', all).on('update', all).on('delete', all);
  return { stop() { queue.shutdown(); } };
}
