// The namespace controller: a namespace being deleted (Terminating, with the `kubernetes`
// finalizer in spec.finalizers) is emptied of every namespaced object, then finalized through
// the `finalize` subresource, after which the API server removes it.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { resourcePath } from '../client/rest.ts';
import { runListWatch } from '../client/list-watch.ts';
import { discoverNamespacedResources, type DiscoveredResource } from '../client/discovery.ts';

const finalizer = 'kubernetes';
const recheckMs = 1000;

export function startNamespaceController(client: Client, log: Logger): { stop(): void } {
  const pending = new Set<string>();
  const running = new Set<string>();
  let stopped = false;

  const consider = (ns: any) => {
    if (ns?.metadata?.deletionTimestamp && (ns.spec?.finalizers ?? []).includes(finalizer)) enqueue(ns.metadata.name);
  };
  const enqueue = (name: string) => {
    if (stopped || pending.has(name)) return;
    pending.add(name);
    setImmediate(() => void work(name));
  };

  async function work(name: string): Promise<void> {
    pending.delete(name);
    if (running.has(name)) return void setTimeout(() => enqueue(name), recheckMs).unref();
    running.add(name);
    try {
      const done = await cleanUp(name);
      if (!done) setTimeout(() => enqueue(name), recheckMs).unref();
    } catch (err) {
      log.warn('namespace cleanup failed; will retry', { namespace: name, err: String(err) });
      setTimeout(() => enqueue(name), recheckMs * 2).unref();
    } finally {
      running.delete(name);
    }
  }

  /** true when the namespace was empty and has been finalized */
  async function cleanUp(name: string): Promise<boolean> {
    let ns;
    try { ns = await client.request('GET', `/api/v1/namespaces/${name}`); } catch (err) { if ((err as { code?: number }).code === 404) return true; throw err; }
    if (!ns.metadata.deletionTimestamp || !(ns.spec?.finalizers ?? []).includes(finalizer)) return true;
    const resources = await discoverNamespacedResources(client);
    let remaining = 0;
    for (const r of resources) remaining += await empty(r, name);
    if (remaining > 0) return false;
    ns.spec.finalizers = ns.spec.finalizers.filter((f: string) => f !== finalizer);
    await client.request('PUT', `/api/v1/namespaces/${name}/finalize`, ns);
    log.info('namespace finalized', { namespace: name });
    return true;
  }

  /** deletes what is left of one resource in the namespace; returns how many objects remain */
  async function empty(r: DiscoveredResource, namespace: string): Promise<number> {
    const path = resourcePath({ ...r, namespace });
    if (r.verbs.includes('deletecollection')) {
      await client.request('DELETE', path).catch(() => {});
    } else if (r.verbs.includes('list') && r.verbs.includes('delete')) {
      const list = await client.request('GET', path);
      for (const item of list.items) await client.request('DELETE', `${path}/${encodeURIComponent(item.metadata.name)}`).catch(() => {});
    }
    if (!r.verbs.includes('list')) return 0;
    return (await client.request('GET', `${path}?limit=1`)).items.length;
  }

  const lw = runListWatch(client, '/api/v1/namespaces', {
    listed: items => items.forEach(consider),
    event: e => { if (e.type !== 'DELETED') consider(e.object); },
  }, { log });
  return { stop() { stopped = true; lw.stop(); } };
}
