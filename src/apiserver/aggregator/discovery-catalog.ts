// Discovery with the extension API servers' group-versions merged in: each available remote
// APIService's resources, as its own /apis/<group>/<version> listed them at the last check,
// appear in /apis, /apis/<group> and aggregated discovery beside orch's own, so kubectl finds them.

import type { Catalog, GroupInfo, ResourceInfo } from '../../schema/types.ts';
import type { RemoteAPIService } from './controller.ts';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** the ResourceInfo of each main resource an APIResourceList names (subresources left out) */
export function remoteResources(api: RemoteAPIService): ResourceInfo[] {
  const out: ResourceInfo[] = [];
  for (const r of api.discovery?.resources ?? []) {
    const name = typeof r.name === 'string' ? r.name : '';
    if (!name || name.includes('/')) continue;
    const kind = typeof r.kind === 'string' ? r.kind : '';
    out.push({
      group: api.group, version: api.version, resource: name,
      singular: typeof r.singularName === 'string' && r.singularName ? r.singularName : kind.toLowerCase(),
      kind, listKind: `${kind}List`, namespaced: r.namespaced === true, verbs: strings(r.verbs),
      shortNames: strings(r.shortNames), categories: strings(r.categories), subresources: [], definition: '', storageVersion: api.version,
    });
  }
  return out;
}

/** the remote group-versions that discovery shows: available, with a discovery document */
function shown(remote: Iterable<RemoteAPIService>): RemoteAPIService[] {
  return [...remote].filter(a => a.available && a.discovery);
}

export function remoteGroups(base: GroupInfo[], remote: Iterable<RemoteAPIService>): GroupInfo[] {
  const apis = shown(remote).filter(a => a.group);
  const groups = base.map(g => ({ ...g, versions: [...g.versions] }));
  const byGroup = new Map<string, RemoteAPIService[]>();
  for (const a of apis) byGroup.set(a.group, [...(byGroup.get(a.group) ?? []), a]);
  const added: Array<GroupInfo & { priority: number }> = [];
  for (const [name, list] of byGroup) {
    // the highest versionPriority is preferred, as kube-aggregator orders a group's versions
    list.sort((a, b) => b.versionPriority - a.versionPriority || (a.version < b.version ? -1 : 1));
    const existing = groups.find(g => g.name === name);
    if (existing) {
      for (const a of list) if (!existing.versions.includes(a.version)) existing.versions.push(a.version);
      continue;
    }
    added.push({ name, versions: list.map(a => a.version), preferredVersion: list[0]!.version, priority: Math.max(...list.map(a => a.groupPriorityMinimum)) });
  }
  added.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : 1));
  return [...groups, ...added.map(({ priority: _p, ...g }) => g)];
}

/** `base` as discovery sees it with `remote()`'s current group-versions merged in */
export function withRemoteApis(base: Catalog, remote: () => Iterable<RemoteAPIService>): Catalog {
  const find = (g: string, v: string) => shown(remote()).find(a => a.group === g && a.version === v);
  return {
    lookup: (g, v, r) => { const a = find(g, v); return a ? remoteResources(a).find(x => x.resource === r) : base.lookup(g, v, r); },
    groups: () => remoteGroups(base.groups(), remote()),
    resources: (g, v) => { const a = find(g, v); return a ? remoteResources(a) : base.resources(g, v); },
    byKind: (g, v, k) => { const a = find(g, v); return a ? remoteResources(a).find(x => x.kind === k) : base.byKind(g, v, k); },
  };
}
