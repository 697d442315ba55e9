// The APIServices of the groups orch serves itself, as kube-apiserver registers them on start:
// one per served group-version, named <version>.<group> ("v1." for the core group), with no
// service (Local) and the group's discovery priority. metrics.k8s.io is served by orch too.

import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Catalog, ResourceInfo } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import { groupPriorityOf } from '../../schema/catalog.ts';
import { withMetricsApi } from '../metrics-api/catalog.ts';
import { localCondition, withCondition, type AvailableCondition } from './availability.ts';

export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';

export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/**
 * The local APIServices for the catalog's built-in groups (without status); group-versions only
 * custom resources serve are the CRD registration's (crd-apiservices.ts)
 */
export function localAPIServices(catalog: Catalog): KubeObject[] {
  const out: KubeObject[] = [];
  for (const g of catalog.groups()) {
    for (const v of g.versions) {
      if (catalog.resources(g.name, v).every(r => r.custom)) continue;
      const spec: Record<string, unknown> = {};
      if (g.name) spec.group = g.name;
      spec.version = v;
      // the preferred version ranks above the others, as kube-apiserver's table ranks a GA version over a beta
      spec.groupPriorityMinimum = groupPriorityOf(g.name) || 1000;
      spec.versionPriority = v === g.preferredVersion ? 15 : 9;
      out.push({
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
        metadata: { name: apiServiceName(g.name, v), labels: { [automanagedLabel]: 'onstart' } },
        spec,
      } as KubeObject);
    }
  }
  return out;
}

export async function ensureLocalAPIServices(store: Registry, catalog: Catalog, now: () => Date = () => new Date()): Promise<void> {
  const info = catalog.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
  if (!info) return;
  const wanted = localAPIServices(withMetricsApi(catalog));
  await removeStale(store, info, catalog, new Set(wanted.map(a => a.metadata.name!)));
  for (const want of wanted) {
    const name = want.metadata.name!;
    let current: KubeObject | undefined;
    try { current = await store.get(info, undefined, name); } catch (err) { if (!(err instanceof StatusError && err.code === 404)) throw err; }
    if (!current) {
      try { current = await store.create(info, undefined, want); } catch (err) {
        if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
        current = await store.get(info, undefined, name);
      }
    }
    // an APIService someone pointed at a service is theirs; the availability controller keeps it
    if ((current as { spec?: { service?: unknown } }).spec?.service) continue;
    await markLocal(store, info, current, now);
  }
}

/**
 * The autoregister controller's "delete once": a start-up APIService (automanaged "onstart", no
 * service) of a group-version nothing serves any more, left from an earlier run (a CRD deleted
 * while the server was down; the CRD registration keeps those of live CRDs)
 */
async function removeStale(store: Registry, info: ResourceInfo, catalog: Catalog, wanted: Set<string>): Promise<void> {
  for (const a of (await store.list(info, undefined)).items as Array<KubeObject & { spec?: { group?: string; version?: string; service?: unknown } }>) {
    if (a.metadata.labels?.[automanagedLabel] !== 'onstart' || a.spec?.service || wanted.has(a.metadata.name!)) continue;
    if (catalog.resources(a.spec?.group ?? '', a.spec?.version ?? '').length) continue;
    await store.delete(info, undefined, a.metadata.name!).catch(err => { if (!(err instanceof StatusError && err.code === 404)) throw err; });
  }
}

/** the Available condition a local APIService has (Local, always True), written when it has not */
export async function markLocal(store: Registry, info: ResourceInfo, current: KubeObject, now: () => Date): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const status = withCondition((current as { status?: { conditions?: AvailableCondition[] } }).status, localCondition(), now().toISOString().replace(/\.\d+Z$/, 'Z'));
    if (!status) return;
    try {
      await store.modify(info, undefined, current.metadata.name!, c => ({ ...c, status }), { subresource: 'status' });
      return;
    } catch (err) {
      // another API server starting on the same etcd wrote it in between: read it again (it
      // likely holds the condition already); two servers started together used to fail here
      if (attempt >= 5 || !(err instanceof StatusError && err.code === 409)) throw err;
      current = await store.get(info, undefined, current.metadata.name!);
    }
  }
}
