// The webhooks in force: Mutating- or ValidatingWebhookConfigurations followed through the
// registry's watch (the watch cache), so that a change applies to the next request, as
// kube-apiserver follows them through an informer. Configurations are ordered by name and
// their webhooks kept in written order, which is the order mutating webhooks run in.

import type { Logger } from '../../../../api/log.ts';
import type { KubeObject } from '../../../../api/object.ts';
import type { Registry, Watcher } from '../../../../registry/registry.ts';
import type { Catalog } from '../../../../schema/types.ts';
import { hookOf, type Hook, type WebhookSpec } from './hook.ts';

export interface HookSource {
  /** the current webhooks, in the order they are called */
  hooks(): Hook[];
  /** resolves once the configurations have been read */
  synced: Promise<void>;
  stop(): void;
}

/** a source over fixed configurations, for tests and for callers that hold them already */
export function staticSource(configurations: KubeObject[]): HookSource {
  const hooks = hooksOf(new Map(configurations.map(c => [c.metadata.name!, c])));
  return { hooks: () => hooks, synced: Promise.resolve(), stop() {} };
}

function hooksOf(configs: Map<string, KubeObject>): Hook[] {
  const names = [...configs.keys()].sort();
  const out: Hook[] = [];
  for (const name of names) {
    const webhooks = (configs.get(name)!.webhooks ?? []) as WebhookSpec[];
    webhooks.forEach((w, i) => out.push(hookOf(name, i, w)));
  }
  return out;
}

export function watchedSource(registry: Registry, catalog: Catalog, resource: 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations', log: Logger): HookSource {
  const info = catalog.lookup('admissionregistration.k8s.io', 'v1', resource);
  if (!info) return staticSource([]);
  const configs = new Map<string, KubeObject>();
  let hooks: Hook[] = [];
  let watcher: Watcher | undefined;
  let stopped = false;
  // consecutive failures to start a watch: retries back off to 30 s while storage is away
  let failures = 0;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>(resolve => { markSynced = resolve; });
  const start = (): void => {
    let seen: Set<string> | undefined = new Set();
    registry.watch(info, undefined, {}, {
      event(type, obj) {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        const o = obj as KubeObject;
        const name = o.metadata.name!;
        seen?.add(name);
        if (type === 'DELETED') configs.delete(name); else configs.set(name, o);
        // compiled per change of configuration, not per request
        if (!seen) hooks = hooksOf(configs);
      },
      synced() {
        for (const name of [...configs.keys()]) if (!seen!.has(name)) configs.delete(name);
        seen = undefined;
        hooks = hooksOf(configs);
        markSynced();
      },
      end(err) {
        if (stopped) return;
        // history compacted or the backend went away: read everything again
        log.warn('webhook configuration watch ended, restarting', { resource, err: err?.message });
        // unref'd: a server shutting down is not kept alive by a watch that lost its storage
        setTimeout(start, 100).unref();
      },
    }).then(w => { failures = 0; if (stopped) w.cancel(); else watcher = w; }, err => {
      log.error('webhook configuration watch failed', { resource, err: (err as Error).message });
      // the webhooks last read stay in force meanwhile, as an informer's cache does
      if (!stopped) setTimeout(start, Math.min(30_000, 1000 * 2 ** failures++)).unref();
    });
  };
  start();
  return {
    hooks: () => hooks,
    synced,
    stop() { stopped = true; watcher?.cancel(); },
  };
}
