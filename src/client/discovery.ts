// Which resources the server serves, read from the same discovery documents kubectl reads:
// GET /api/v1, /apis and /apis/<group>/<version>.

import type { Client } from './rest.ts';

export interface DiscoveredResource { group: string; version: string; resource: string; verbs: string[] }

/** a resource in one served group version (the garbage collector maps owner references with these) */
export interface ServedResource extends DiscoveredResource {
  kind: string;
  namespaced: boolean;
  /** the version is its group's preferred one */
  preferred: boolean;
}

interface APIResource { name: string; kind?: string; namespaced?: boolean; verbs?: string[] }
interface APIGroup { name: string; preferredVersion?: { version: string }; versions?: Array<{ version: string }> }

export interface DiscoveryOptions {
  /** a group version whose resource list could not be read; without it, the failure is thrown */
  onError?(groupVersion: string, err: unknown): void;
  /** read only each group's preferred version */
  preferredOnly?: boolean;
}

/** every resource of every served group version (subresources left out) */
export async function discoverAllResources(client: Client, opts: DiscoveryOptions = {}): Promise<ServedResource[]> {
  const gvs: Array<{ group: string; version: string; preferred: boolean }> = [{ group: '', version: 'v1', preferred: true }];
  const groups = await client.get<{ groups?: APIGroup[] }>('/apis');
  for (const g of groups.groups ?? []) {
    const preferred = g.preferredVersion?.version ?? g.versions?.[0]?.version;
    if (opts.preferredOnly) {
      if (preferred) gvs.push({ group: g.name, version: preferred, preferred: true });
      continue;
    }
    for (const v of g.versions ?? []) gvs.push({ group: g.name, version: v.version, preferred: v.version === preferred });
  }
  // the group documents are independent: read them together
  const lists = await Promise.all(gvs.map(async gv => {
    const path = gv.group ? `/apis/${gv.group}/${gv.version}` : '/api/v1';
    try {
      return { gv, resources: (await client.get<{ resources?: APIResource[] }>(path)).resources ?? [] };
    } catch (err) {
      if (!opts.onError) throw err;
      opts.onError(gv.group ? `${gv.group}/${gv.version}` : gv.version, err);
      return { gv, resources: [] };
    }
  }));
  const out: ServedResource[] = [];
  for (const { gv, resources } of lists) {
    for (const r of resources) {
      // "pods/status" and the like are subresources, not collections of their own
      if (r.name.includes('/')) continue;
      out.push({ ...gv, resource: r.name, kind: r.kind ?? '', namespaced: !!r.namespaced, verbs: r.verbs ?? [] });
    }
  }
  return out;
}

/** the namespaced resources, in each group's preferred version */
export async function discoverNamespacedResources(client: Client, opts: DiscoveryOptions = {}): Promise<DiscoveredResource[]> {
  const all = await discoverAllResources(client, { ...opts, preferredOnly: true });
  return all.filter(r => r.namespaced).map(({ group, version, resource, verbs }) => ({ group, version, resource, verbs }));
}
