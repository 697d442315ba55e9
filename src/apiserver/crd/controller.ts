// The API server's CustomResourceDefinition controllers in one loop, as kube-apiserver runs its
// naming, establishing and finalizer controllers in process: CRDs are followed through the
// registry's watch; each change settles names and conditions (status-decision.ts), swaps the
// served custom resources into the catalog, and runs the cleanup of deleted CRDs (cleanup.ts).

import type { Logger } from '../../api/log.ts';
import type { KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import type { Registry, Watcher } from '../../registry/registry.ts';
import type { ExtensibleCatalog } from '../../schema/extensible-catalog.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import { cleanupFinalizer, type Crd } from '../../registry/apiextensions/crd-types.ts';
import { servedResources } from '../../registry/apiextensions/served-resources.ts';
import type { CustomResourceConversions } from '../../registry/apiextensions/conversion/converter.ts';
import { byAge, nextStatus } from './status-decision.ts';
import { cleanUp, isGone } from './cleanup.ts';

export interface CrdController {
  /** resolves once the stored CRDs are served (the first list was settled) */
  readonly synced: Promise<void>;
  stop(): void;
}

export interface CrdControllerDeps {
  registry: Registry;
  catalog: ExtensibleCatalog;
  log: Logger;
  now?: () => Date;
  /** the converters the store reads custom resources through, kept to the CRDs known */
  conversions?: CustomResourceConversions;
}

export function startCrdController(deps: CrdControllerDeps): CrdController {
  const crdInfo = deps.catalog.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  const now = () => rfc3339((deps.now ?? (() => new Date()))());
  const crds = new Map<string, Crd>();
  const cleaning = new Set<string>();
  // uids of CRDs found gone before their watch said so: late events of theirs must not serve them again
  const gone = new Set<string>();
  let watcher: Watcher | undefined;
  let stopped = false;
  let running = false;
  let again = false;
  let resolveSynced!: () => void;
  const synced = new Promise<void>(r => { resolveSynced = r; });
  if (!crdInfo) { resolveSynced(); return { synced, stop() {} }; }

  const publish = (): void => {
    deps.conversions?.update([...crds.values()]);
    deps.catalog.setCustomResources([...crds.values()].sort(byAge).flatMap(servedResources));
  };

  const storedInfo = (crd: Crd): ResourceInfo | undefined => servedResources(crd)[0];

  const startCleanup = (crd: Crd): void => {
    const name = crd.metadata.name!;
    if (cleaning.has(name)) return;
    cleaning.add(name);
    const cleanupDeps = { registry: deps.registry, crdInfo, now };
    cleanUp(cleanupDeps, crd, storedInfo(crd)).then(async done => {
      // once the definition is gone its resource stops being served at once, not when the watch says so
      if (done && await isGone(cleanupDeps, name)) {
        if (crd.metadata.uid) gone.add(crd.metadata.uid);
        crds.delete(name);
        publish();
      }
      cleaning.delete(name);
      if (!done && !stopped) setTimeout(() => { const cur = crds.get(name); if (cur) startCleanup(cur); }, 1000).unref();
    }, err => {
      cleaning.delete(name);
      deps.log.warn('custom resource cleanup failed, retrying', { crd: name, err: (err as Error).message });
      if (!stopped) setTimeout(() => { const cur = crds.get(name); if (cur) startCleanup(cur); }, 1000).unref();
    });
  };

  const settle = async (): Promise<void> => {
    for (const crd of [...crds.values()].sort(byAge)) {
      if (stopped) return;
      const name = crd.metadata.name!;
      if (crd.metadata.deletionTimestamp) {
        if (crd.metadata.finalizers?.includes(cleanupFinalizer)) startCleanup(crd);
        continue;
      }
      const status = nextStatus(crd, [...crds.values()], now());
      if (!status) continue;
      try {
        const written = await deps.registry.modify(crdInfo, undefined, name, cur => {
          // decided again on the object as stored now, which a client may have changed since
          const fresh = nextStatus(cur as Crd, [...crds.values()], now());
          return fresh ? { ...cur, status: fresh } as KubeObject : cur;
        }, { subresource: 'status', manager: 'kube-apiserver' });
        // served as soon as the status says so, before any client can read that it is
        crds.set(name, written as Crd);
        publish();
      } catch (err) {
        deps.log.warn('custom resource definition status not written', { crd: name, err: (err as Error).message });
        again = true;
      }
    }
  };

  const kick = (): void => {
    if (running) { again = true; return; }
    running = true;
    void (async () => {
      try {
        do { again = false; publish(); await settle(); } while (again && !stopped);
      } finally {
        running = false;
      }
    })();
  };

  const start = (): void => {
    let seen: Set<string> | undefined = crds.size ? new Set() : undefined;
    deps.registry.watch(crdInfo, undefined, {}, {
      event(type, obj) {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        const o = obj as Crd;
        const name = o.metadata?.name ?? '';
        seen?.add(name);
        const uid = o.metadata?.uid ?? '';
        if (type === 'DELETED') {
          gone.delete(uid);
          if (crds.get(name)?.metadata.uid === uid) crds.delete(name);
        } else if (!gone.has(uid)) {
          crds.set(name, o);
        }
        if (!seen) kick();
      },
      synced() {
        if (seen) for (const k of [...crds.keys()]) if (!seen.has(k)) crds.delete(k);
        seen = undefined;
        publish();
        resolveSynced();
        kick();
      },
      end(err) {
        if (stopped) return;
        deps.log.warn('custom resource definition watch ended, restarting', { err: err?.message });
        setTimeout(() => { if (!stopped) start(); }, 100).unref();
      },
    }).then(w => { if (stopped) w.cancel(); else watcher = w; }, err => {
      deps.log.warn('custom resource definition watch failed, retrying', { err: (err as Error).message });
      setTimeout(() => { if (!stopped) start(); }, 1000).unref();
    });
  };
  start();
  return { synced, stop() { stopped = true; watcher?.cancel(); } };
}
