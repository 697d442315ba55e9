// The type catalog: the generated resource table, filtered to what this server serves
// (Kubernetes v1.36 defaults adjusted by --runtime-config), with short names, categories,
// preferred and storage versions filled in.

import type { Catalog, GroupInfo, ResourceInfo } from './types.ts';
import { generatedResources, type GeneratedResource } from './generated/resources.ts';
import { categoriesFor, shortNamesFor, singularNameFor } from './resource-names.ts';
import { compareVersions, parseRuntimeConfig, resourceEnabled, stabilityOf } from './runtime-config.ts';

// Where each group sits in discovery (kube-apiserver's API service priorities); higher first.
// Groups missing here go last, by name.
const groupPriority: Record<string, number> = {
  '': 18100,
  'apiregistration.k8s.io': 18050,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100,
  'internal.apiserver.k8s.io': 16000,
  'resource.k8s.io': 15900,
  'storagemigration.k8s.io': 15800,
};

/** a group's place in discovery, as its local APIService's groupPriorityMinimum shows it */
export function groupPriorityOf(group: string): number {
  return groupPriority[group] ?? 0;
}

export function compareGroups(a: string, b: string): number {
  const pa = groupPriority[a] ?? 0;
  const pb = groupPriority[b] ?? 0;
  return pb - pa || (a < b ? -1 : a > b ? 1 : 0);
}

/** every group-version the generated table knows, served or not */
export function knownGroupVersions(): Array<{ group: string; version: string }> {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of generatedResources) seen.set(`${r.group}/${r.version}`, { group: r.group, version: r.version });
  return [...seen.values()];
}

function checkKnown(keys: Iterable<string>, known: Set<string>, knownGroups: Set<string>): void {
  for (const key of keys) {
    const [group, version] = key.split('/') as [string, string];
    // like kube-apiserver: a group this server does not have is ignored, a bad version of one it has is an error
    if (!knownGroups.has(group)) continue;
    if (!known.has(`${group}/${version}`)) {
      throw new Error(`invalid --runtime-config: group version ${group ? `${group}/` : ''}${version} is not served by this server`);
    }
  }
}

export function createCatalog(opts: { runtimeConfig?: string } = {}): Catalog {
  const cfg = parseRuntimeConfig(opts.runtimeConfig);
  const known = new Set(generatedResources.map(r => `${r.group}/${r.version}`));
  const knownGroups = new Set(generatedResources.map(r => r.group));
  checkKnown(cfg.versions.keys(), known, knownGroups);
  checkKnown(cfg.resources.keys(), known, knownGroups);

  const served = generatedResources.filter(r => resourceEnabled(cfg, r.group, r.version, r.resource));

  // versions of each group+resource, best first, to pick where its objects are stored
  const versionsOf = new Map<string, string[]>();
  for (const r of served) {
    const key = `${r.group}/${r.resource}`;
    versionsOf.set(key, [...(versionsOf.get(key) ?? []), r.version].sort(compareVersions));
  }
  const storageVersionOf = (r: GeneratedResource): string => {
    const versions = versionsOf.get(`${r.group}/${r.resource}`)!;
    return versions.find(v => stabilityOf(v) === 'ga') ?? versions[0]!;
  };

  const infos: ResourceInfo[] = served.map(r => ({
    group: r.group,
    version: r.version,
    resource: r.resource,
    singular: singularNameFor(r.group, r.resource, r.kind),
    kind: r.kind,
    listKind: `${r.kind}List`,
    namespaced: r.namespaced,
    verbs: [...r.verbs],
    shortNames: shortNamesFor(r.group, r.resource),
    categories: categoriesFor(r.group, r.resource),
    subresources: r.subresources.map(s => ({ name: s.name, kind: s.kind, group: s.group, version: s.version, verbs: [...s.verbs] })),
    definition: r.definition,
    storageVersion: storageVersionOf(r),
  }));

  const byGv = new Map<string, ResourceInfo[]>();
  const byName = new Map<string, ResourceInfo>();
  const byKindKey = new Map<string, ResourceInfo>();
  for (const info of infos) {
    const gv = `${info.group}/${info.version}`;
    byGv.set(gv, [...(byGv.get(gv) ?? []), info]);
    byName.set(`${gv}/${info.resource}`, info);
    // the first resource of a kind wins; in the built-in set no two resources share one
    if (!byKindKey.has(`${gv}/${info.kind}`)) byKindKey.set(`${gv}/${info.kind}`, info);
  }

  const groupVersions = new Map<string, string[]>();
  for (const info of infos) {
    const versions = groupVersions.get(info.group) ?? [];
    if (!versions.includes(info.version)) versions.push(info.version);
    groupVersions.set(info.group, versions);
  }
  const groups: GroupInfo[] = [...groupVersions.entries()]
    .sort(([a], [b]) => compareGroups(a, b))
    .map(([name, versions]) => {
      const sorted = [...versions].sort(compareVersions);
      return { name, versions: sorted, preferredVersion: sorted[0]! };
    });

  return {
    lookup: (group, version, resource) => byName.get(`${group}/${version}/${resource}`),
    groups: () => groups.map(g => ({ ...g, versions: [...g.versions] })),
    resources: (group, version) => [...(byGv.get(`${group}/${version}`) ?? [])],
    byKind: (group, version, kind) => byKindKey.get(`${group}/${version}/${kind}`),
  };
}
