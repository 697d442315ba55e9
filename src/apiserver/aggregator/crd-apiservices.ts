// kube-apiserver's crdRegistrationController with the autoregister controller's "sync always"
// rule: every group-version a custom resource serves (and no built-in resource does) has a local
// APIService <version>.<group> with group priority 1000 and version priority 100, labelled
// automanaged "true"; it is put back when changed and deleted once no CRD serves the
// group-version. An APIService of that name someone else made (no automanaged label) is theirs.

import { StatusError } from '../../api/status.ts';
import type { Logger } from '../../api/log.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Registry } from '../../registry/registry.ts';
import type { ExtensibleCatalog } from '../../schema/extensible-catalog.ts';
import type { Catalog } from '../../schema/types.ts';
import { apiServiceName, automanagedLabel, markLocal } from './local-apiservices.ts';

type APIService = KubeObject & { spec?: Record<string, unknown> };

/** the APIServices the custom resources call for (without status) */
export function crdAPIServices(catalog: Catalog & Pick<ExtensibleCatalog, 'customResources'>): APIService[] {
  const gvs = new Map<string, { group: string; version: string }>();
  for (const r of catalog.customResources()) gvs.set(apiServiceName(r.group, r.version), { group: r.group, version: r.version });
  const out: APIService[] = [];
  for (const [name, { group, version }] of [...gvs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // a group-version built-in resources serve already has its own APIService
    if (catalog.resources(group, version).some(r => !r.custom)) continue;
    out.push({
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
      metadata: { name, labels: { [automanagedLabel]: 'true' } },
      // CRDs rank below the built-in groups; their versions are ordered by Kubernetes' version rules
      spec: { group, version, groupPriorityMinimum: 1000, versionPriority: 100 },
    });
  }
  return out;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** one pass: desired APIServices created or put back, those of no CRD any more deleted */
export async function syncCrdAPIServices(store: Registry, catalog: ExtensibleCatalog, now: () => Date = () => new Date()): Promise<void> {
  const info = catalog.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
  if (!info) return;
  const desired = new Map(crdAPIServices(catalog).map(a => [a.metadata.name!, a]));
  const current = (await store.list(info, undefined)).items as APIService[];
  const byName = new Map(current.map(a => [a.metadata.name!, a]));
  for (const [name, want] of desired) {
    let have = byName.get(name);
    if (!have) {
      try { have = await store.create(info, undefined, want) as APIService; } catch (err) {
        if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
        continue;
      }
    } else {
      const label = have.metadata.labels?.[automanagedLabel];
      if (label === undefined) continue;
      if (label !== 'true' || !sameJson(have.spec, want.spec)) {
        have = await store.modify(info, undefined, name, c => ({ ...c, metadata: { ...c.metadata, labels: { ...c.metadata.labels, [automanagedLabel]: 'true' } }, spec: want.spec })) as APIService;
      }
    }
    await markLocal(store, info, have, now);
  }
  for (const a of current) {
    if (a.metadata.labels?.[automanagedLabel] !== 'true' || desired.has(a.metadata.name!)) continue;
    try { await store.delete(info, undefined, a.metadata.name!); } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
}

/** follows the catalog: a pass after every change of the custom resources served (one at a time) */
export function startCrdAPIServiceRegistration(o: { store: Registry; catalog: ExtensibleCatalog; log: Logger }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const kick = (): void => {
    if (stopped) return;
    if (running) { again = true; return; }
    running = (async () => {
      do {
        again = false;
        try { await syncCrdAPIServices(o.store, o.catalog); } catch (err) {
          o.log.warn('custom resource APIServices not synced, retrying', { err: (err as Error).message });
          await new Promise(r => setTimeout(r, 1000).unref());
          again = true;
        }
      } while (again && !stopped);
    })().finally(() => { running = undefined; });
  };
  const off = o.catalog.onChange(kick);
  kick();
  return { async stop() { stopped = true; off(); await running; } };
}
