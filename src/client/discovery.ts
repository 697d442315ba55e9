// Which namespaced resources the server serves (preferred version of each group), from the
// same discovery documents kubectl reads.

import type { Client } from './rest.ts';

export interface DiscoveredResource { group: string; version: string; resource: string; verbs: string[] }

export async function discoverNamespacedResources(client: Client): Promise<DiscoveredResource[]> {
  const lists: Array<{ group: string; version: string }> = [{ group: '', version: 'v1' }];
  const groups = await client.request('GET', '/apis');
  for (const g of groups.groups ?? []) lists.push({ group: g.name, version: g.preferredVersion.version });
  const out: DiscoveredResource[] = [];
  for (const gv of lists) {
    const rl = await client.request('GET', gv.group ? `/apis/${gv.group}/${gv.version}` : '/api/v1');
    for (const r of rl.resources ?? []) {
      if (!r.namespaced || r.name.includes('/')) continue;
      out.push({ ...gv, resource: r.name, verbs: r.verbs ?? [] });
    }
  }
  return out;
}
