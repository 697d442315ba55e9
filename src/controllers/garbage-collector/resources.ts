// The resources the garbage collector knows, from discovery: which it watches (everything that
// can be listed, watched and deleted, in its group's preferred version, events aside), and how
// an owner reference's apiVersion and kind map to a resource and its scope.

import type { ServedResource } from '../../client/discovery.ts';

export interface Mapping { group: string; version: string; resource: string; namespaced: boolean }

// Kubernetes' collector never watches events: there are many, and nothing owns through them
const ignored = new Set(['events.', 'events.events.k8s.io']);

export const resourceKey = (r: { group: string; resource: string }) => `${r.resource}.${r.group}`;

/** the resources whose objects may be dependents or owners, one version each */
export function deletableResources(all: ServedResource[]): ServedResource[] {
  return all.filter(r => r.preferred && ['list', 'watch', 'delete'].every(v => r.verbs.includes(v)) && !ignored.has(resourceKey(r)));
}

export class RestMapper {
  private byKind = new Map<string, Mapping>();

  constructor(all: ServedResource[] = []) { this.reset(all); }

  /** the mappings discovery gives now; those of `keepGroups` (whose discovery failed) stay as they were */
  reset(all: ServedResource[], keepGroups: Set<string> = new Set()): void {
    const next = new Map<string, Mapping>();
    for (const [key, m] of this.byKind) if (keepGroups.has(m.group)) next.set(key, m);
    for (const r of all) {
      if (!r.kind) continue;
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      const key = `${apiVersion}|${r.kind}`;
      // a kind served by several resources (rare): the first listed wins, as discovery orders them
      if (!next.has(key)) next.set(key, { group: r.group, version: r.version, resource: r.resource, namespaced: r.namespaced });
    }
    this.byKind = next;
  }

  /** undefined: discovery does not (yet) know that apiVersion and kind */
  map(apiVersion: string, kind: string): Mapping | undefined {
    return this.byKind.get(`${apiVersion}|${kind}`);
  }
}

export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
