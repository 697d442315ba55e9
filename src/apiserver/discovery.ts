// Discovery documents: GET /api, /apis, /apis/<group>, /api/v1, /apis/<group>/<version>, and
// the aggregated form of /api and /apis (apidiscovery.k8s.io) that kubectl 1.26+ asks for.
// Pure functions of the catalog; the HTTP side lives in non-resource.ts.

import { subresourcesOf } from '../registry/subresources/table.ts';
import { createHash } from 'node:crypto';
import type { Catalog, ResourceInfo } from '../schema/types.ts';

export type AggregatedVersion = 'v2' | 'v2beta1';

export function aggregatedContentType(version: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** GET /api */
export function coreVersions(serverAddress?: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: serverAddress ? [{ clientCIDR: '0.0.0.0/0', serverAddress }] : [],
  };
}

function groupVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

function apiGroup(name: string, versions: string[], preferred: string): Record<string, unknown> {
  return {
    name,
    versions: versions.map(v => ({ groupVersion: groupVersion(name, v), version: v })),
    preferredVersion: { groupVersion: groupVersion(name, preferred), version: preferred },
  };
}

/** GET /apis */
export function groupList(catalog: Catalog): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: catalog.groups().filter(g => g.name !== '').map(g => apiGroup(g.name, g.versions, g.preferredVersion)),
  };
}

/** GET /apis/<group>, or undefined when the group is not served */
export function group(catalog: Catalog, name: string): Record<string, unknown> | undefined {
  const g = catalog.groups().find(x => x.name === name && name !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.name, g.versions, g.preferredVersion) } : undefined;
}

/**
 * The hash Kubernetes publishes so storage migrators notice a change of storage version:
 * base64 of the first 8 bytes of sha256("<group>/<version>/<kind>").
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** resources that are kept in storage (virtual ones such as tokenreviews or bindings are not) */
function isStored(r: ResourceInfo): boolean {
  return r.verbs.includes('create') && r.verbs.includes('get');
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** GET /api/v1 or /apis/<group>/<version>; undefined when that group-version is not served */
export function resourceList(catalog: Catalog, group: string, version: string): Record<string, unknown> | undefined {
  const resources = catalog.resources(group, version);
  if (resources.length === 0) return undefined;
  const entries: Array<Record<string, unknown> & { name: string }> = [];
  for (const r of resources) {
    const main: Record<string, unknown> & { name: string } = {
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs],
    };
    if (r.shortNames.length) main.shortNames = [...r.shortNames];
    if (r.categories.length) main.categories = [...r.categories];
    if (isStored(r)) main.storageVersionHash = storageVersionHash(r.group, r.storageVersion, r.kind);
    entries.push(main);
    for (const s of subresourcesOf(r)) {
      const sub: Record<string, unknown> & { name: string } = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced };
      const k = s.kind(r);
      // group and version are only written when the subresource's kind lives elsewhere (Scale, Eviction)
      if (k.group !== r.group || k.version !== r.version) { sub.group = k.group; sub.version = k.version; }
      sub.kind = k.kind;
      sub.verbs = [...s.verbs];
      entries.push(sub);
    }
  }
  entries.sort(byName);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources: entries };
}

function responseKind(r: ResourceInfo, group: string, version: string, kind: string): Record<string, string> {
  // Kubernetes leaves group and version empty when they are the resource's own
  return group === r.group && version === r.version ? { group: '', version: '', kind } : { group, version, kind };
}

function resourceDiscovery(r: ResourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length) out.shortNames = [...r.shortNames];
  if (r.categories.length) out.categories = [...r.categories];
  const subresources = subresourcesOf(r);
  if (subresources.length) {
    out.subresources = subresources.map(s => {
      const k = s.kind(r);
      return { subresource: s.name, responseKind: responseKind(r, k.group, k.version, k.kind), verbs: [...s.verbs] };
    });
  }
  return out;
}

/** GET /api or /apis as an APIGroupDiscoveryList (legacy: the core group only; apis: all others) */
export function aggregated(catalog: Catalog, scope: 'legacy' | 'apis', version: AggregatedVersion): Record<string, unknown> {
  const groups = catalog.groups().filter(g => (scope === 'legacy') === (g.name === ''));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map(g => ({
      // an unset creationTimestamp is left out since Kubernetes 1.33 (omitzero)
      metadata: g.name ? { name: g.name } : {},
      versions: g.versions.map(v => ({
        version: v,
        resources: catalog.resources(g.name, v)
          .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0))
          .map(resourceDiscovery),
        freshness: 'Current',
      })),
    })),
  };
}

interface AcceptEntry { type: string; params: Record<string, string>; q: number; index: number }

function parseAccept(accept: string): AcceptEntry[] {
  return accept.split(',').map((part, index) => {
    const [type = '', ...rest] = part.split(';').map(s => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index };
  }).filter(e => e.type && e.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
}

/**
 * Which aggregated discovery version the Accept header asks for, if any. The first acceptable
 * entry decides: a plain application/json (or * / *) ahead of the aggregated types means the
 * client wants the unaggregated document.
 */
export function wantsAggregated(accept: string): AggregatedVersion | undefined {
  for (const e of parseAccept(accept)) {
    const isAggregated = e.params.g === 'apidiscovery.k8s.io' && e.params.as === 'APIGroupDiscoveryList';
    if (isAggregated) {
      if (e.type !== 'application/json') continue; // we do not serve discovery as protobuf
      if (e.params.v === 'v2' || e.params.v === 'v2beta1') return e.params.v;
      continue;
    }
    if (e.params.as) continue; // some other view we do not offer
    if (e.type === 'application/json' || e.type === '*/*' || e.type === 'application/*') return undefined;
  }
  return undefined;
}
