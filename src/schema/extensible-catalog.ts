// The catalog as the API server serves it: the built-in table plus the custom resources of
// established CustomResourceDefinitions, which come and go while the server runs. Everything
// that reads the catalog (router, discovery, admission, RBAC) keeps one reference to it, so the
// custom part is swapped in place rather than a new catalog built.

import type { Catalog, GroupInfo, ResourceInfo } from './types.ts';
import { compareGroups } from './catalog.ts';
import { compareVersions } from './runtime-config.ts';

export interface ExtensibleCatalog extends Catalog {
  /** replaces every custom resource served (a CRD's served versions, one entry each) */
  setCustomResources(resources: ResourceInfo[]): void;
  /** the custom resources served now */
  customResources(): ResourceInfo[];
  /** calls `listener` after every setCustomResources (the APIService registration follows it); returns its removal */
  onChange(listener: () => void): () => void;
}

interface CustomIndex {
  all: ResourceInfo[];
  byName: Map<string, ResourceInfo>;
  byKind: Map<string, ResourceInfo>;
  byGv: Map<string, ResourceInfo[]>;
  groups: GroupInfo[];
}

function index(base: Catalog, resources: ResourceInfo[]): CustomIndex {
  const byName = new Map<string, ResourceInfo>();
  const byKind = new Map<string, ResourceInfo>();
  const byGv = new Map<string, ResourceInfo[]>();
  const versionsOf = new Map<string, Set<string>>();
  for (const r of resources) {
    const gv = `${r.group}/${r.version}`;
    // a built-in resource always wins over a custom one of the same name
    if (base.lookup(r.group, r.version, r.resource)) continue;
    byName.set(`${gv}/${r.resource}`, r);
    if (!byKind.has(`${gv}/${r.kind}`)) byKind.set(`${gv}/${r.kind}`, r);
    byGv.set(gv, [...(byGv.get(gv) ?? []), r]);
    versionsOf.set(r.group, (versionsOf.get(r.group) ?? new Set()).add(r.version));
  }
  const groups = [...versionsOf.entries()].map(([name, vs]) => {
    // kube-apiserver orders a custom group's versions by Kubernetes' version priority
    const versions = [...vs].sort(compareVersions);
    return { name, versions, preferredVersion: versions[0]! };
  });
  return { all: [...resources], byName, byKind, byGv, groups };
}

export function extensibleCatalog(base: Catalog): ExtensibleCatalog {
  let custom = index(base, []);
  const listeners = new Set<() => void>();
  return {
    lookup: (g, v, r) => base.lookup(g, v, r) ?? custom.byName.get(`${g}/${v}/${r}`),
    byKind: (g, v, k) => base.byKind(g, v, k) ?? custom.byKind.get(`${g}/${v}/${k}`),
    resources: (g, v) => [...base.resources(g, v), ...(custom.byGv.get(`${g}/${v}`) ?? [])],
    groups() {
      const out = base.groups();
      for (const g of custom.groups) {
        const builtIn = out.find(x => x.name === g.name);
        if (!builtIn) { out.push({ ...g, versions: [...g.versions] }); continue; }
        for (const v of g.versions) if (!builtIn.versions.includes(v)) builtIn.versions.push(v);
      }
      return out.sort((a, b) => compareGroups(a.name, b.name));
    },
    setCustomResources(resources) {
      custom = index(base, resources);
      for (const l of listeners) l();
    },
    customResources: () => [...custom.byName.values()],
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
