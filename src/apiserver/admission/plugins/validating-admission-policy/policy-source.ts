// Policies and bindings as the API holds them, followed through the registry's watch (the
// watch cache), so a created, changed or deleted policy or binding applies to the next request
// (within the watch's delivery delay, well under a second). Policies are compiled once per change.

import type { KubeObject } from '../../../../api/object.ts';
import type { Logger } from '../../../../api/log.ts';
import type { Registry, Watcher } from '../../../../registry/registry.ts';
import type { Catalog } from '../../../../schema/types.ts';

const admissionGroup = 'admissionregistration.k8s.io';

/** objects of one resource by name, kept current; `synced` once the first list arrived */
export interface Followed<T> {
  readonly items: ReadonlyMap<string, T>;
  readonly synced: Promise<void>;
  stop(): void;
}

export function follow<T>(registry: Registry, catalog: Catalog, resource: string, read: (o: KubeObject) => T, log?: Logger): Followed<T> {
  const items = new Map<string, T>();
  const info = catalog.lookup(admissionGroup, 'v1', resource);
  let watcher: Watcher | undefined;
  let stopped = false;
  const synced = new Promise<void>((resolve) => {
    if (!info) { resolve(); return; }
    let seen: Set<string> | undefined;
    const start = (): void => {
      registry.watch(info, undefined, {}, {
        event(type, obj) {
          if (type === 'BOOKMARK' || type === 'ERROR') return;
          const o = obj as KubeObject;
          const name = o.metadata?.name ?? '';
          seen?.add(name);
          if (type === 'DELETED') items.delete(name);
          else items.set(name, read(o));
        },
        synced() {
          if (seen) for (const k of [...items.keys()]) if (!seen.has(k)) items.delete(k);
          seen = undefined;
          resolve();
        },
        end(err) {
          if (stopped) return;
          // history compacted or backend gone: list everything again (timers unref'd: a server
          // shutting down closes storage under the watch, and must not be kept alive by the retry)
          log?.warn('admission policy watch ended, restarting', { resource, err: err?.message });
          setTimeout(() => { if (!stopped) { seen = new Set(); start(); } }, 100).unref();
        },
      }).then(w => {
        if (stopped) w.cancel(); else watcher = w;
        // a watch that started from the current state has delivered it by now
        resolve();
      }, err => {
        log?.warn('admission policy watch failed, retrying', { resource, err: (err as Error).message });
        setTimeout(() => { if (!stopped) start(); }, 1000).unref();
      });
    };
    start();
  });
  return { items, synced, stop() { stopped = true; watcher?.cancel(); } };
}

/** resolves once `synced` does; false when it has not within `ms` (the plugin is not ready) */
export async function readyWithin(synced: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>(res => { timer = setTimeout(() => res(false), ms); timer.unref(); });
  try {
    return await Promise.race([synced.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
